//! Helpers shared by the library's unit tests.

/// `len` bytes that neither repeat nor compress (xorshift), so that whatever a chunker, a
/// patch or a compressor does with them depends on their content alone.
pub(crate) fn noise(len: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}
