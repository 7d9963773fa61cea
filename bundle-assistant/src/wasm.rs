//! The module's exports, as `assets/assistant.js` calls them. Bytes cross as (pointer, length)
//! pairs in the module's memory: the page asks `quire_alloc` for room, copies its bytes in and
//! hands them over (the callee frees them); an answer or an error is left in one output buffer
//! the page reads through `quire_output_ptr` and `quire_output_len` before its next call. No
//! imports: the module needs nothing from the page but its memory.

use std::cell::RefCell;

use crate::Assistant;

thread_local! {
    static ASSISTANT: RefCell<Option<Assistant>> = const { RefCell::new(None) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes the page writes and then hands to `quire_load` or `quire_ask`.
#[unsafe(no_mangle)]
pub extern "C" fn quire_alloc(len: usize) -> *mut u8 {
    let mut bytes = Vec::<u8>::with_capacity(len);
    let pointer = bytes.as_mut_ptr();
    std::mem::forget(bytes);
    pointer
}

/// Takes back bytes `quire_alloc` gave.
///
/// # Safety
/// `pointer` and `len` are what one `quire_alloc(len)` returned, handed over once.
unsafe fn take(pointer: *mut u8, len: usize) -> Vec<u8> {
    if pointer.is_null() {
        return Vec::new();
    }
    // SAFETY: the caller's contract: the allocation of `quire_alloc(len)`, filled by the page.
    unsafe { Vec::from_raw_parts(pointer, len, len) }
}

/// Loads the site: the retriever's index, the vocabulary (length 0: none) and the site's facts
/// (JSON). Returns 0, or 1 with the reason in the output buffer.
///
/// # Safety
/// Each (pointer, length) pair comes from `quire_alloc` and is handed over once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn quire_load(
    index: *mut u8,
    index_len: usize,
    vocabulary: *mut u8,
    vocabulary_len: usize,
    site: *mut u8,
    site_len: usize,
) -> u32 {
    // SAFETY: the function's contract.
    let (index, vocabulary, site) = unsafe {
        (
            take(index, index_len),
            take(vocabulary, vocabulary_len),
            take(site, site_len),
        )
    };
    let vocabulary = (!vocabulary.is_empty()).then_some(vocabulary.as_slice());
    match Assistant::load(&index, vocabulary, &site) {
        Ok(assistant) => {
            ASSISTANT.with(|slot| *slot.borrow_mut() = Some(assistant));
            0
        }
        Err(e) => output(e.to_string().into_bytes(), 1),
    }
}

/// Answers a question (an `AskRequest` as JSON). Returns 0 with a `Reply` as JSON in the output
/// buffer, or 1 with the reason.
///
/// # Safety
/// The (pointer, length) pair comes from `quire_alloc` and is handed over once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn quire_ask(request: *mut u8, request_len: usize) -> u32 {
    // SAFETY: the function's contract.
    let request = unsafe { take(request, request_len) };
    let answered = ASSISTANT.with(|slot| match slot.borrow().as_ref() {
        Some(assistant) => assistant.ask_json(&request).map_err(|e| e.to_string()),
        None => Err("the site is not loaded".to_string()),
    });
    match answered {
        Ok(reply) => output(reply, 0),
        Err(message) => output(message.into_bytes(), 1),
    }
}

/// Where the last output starts.
#[unsafe(no_mangle)]
pub extern "C" fn quire_output_ptr() -> *const u8 {
    OUTPUT.with(|buffer| buffer.borrow().as_ptr())
}

/// How long the last output is.
#[unsafe(no_mangle)]
pub extern "C" fn quire_output_len() -> usize {
    OUTPUT.with(|buffer| buffer.borrow().len())
}

fn output(bytes: Vec<u8>, status: u32) -> u32 {
    OUTPUT.with(|buffer| *buffer.borrow_mut() = bytes);
    status
}
