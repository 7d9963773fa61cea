//! An index's segments joined into one byte string, for a reader that takes its index as one
//! file (the assistant a bundle carries): a tag, then each segment's length and bytes.

/// Opens joined segments; a segment itself starts with its format number, never with this.
const TAG: &[u8] = b"QUIRE-SEGMENTS/1\n";

/// `segments` as one byte string, in order.
pub fn join(segments: &[impl AsRef<[u8]>]) -> Vec<u8> {
    let size = segments.iter().map(|s| s.as_ref().len() + 8).sum::<usize>();
    let mut joined = Vec::with_capacity(TAG.len() + size);
    joined.extend_from_slice(TAG);
    for segment in segments {
        let segment = segment.as_ref();
        joined.extend_from_slice(&(segment.len() as u64).to_le_bytes());
        joined.extend_from_slice(segment);
    }
    joined
}

/// The segments `join` wrote, or `None` when `bytes` are not joined segments (a single one).
pub fn split(bytes: &[u8]) -> Option<Result<Vec<&[u8]>, String>> {
    let mut rest = bytes.strip_prefix(TAG)?;
    let mut segments = Vec::new();
    while !rest.is_empty() {
        let Some((length, after)) = rest.split_first_chunk::<8>() else {
            return Some(Err("corrupt index: a segment's length is cut short".into()));
        };
        let length = u64::from_le_bytes(*length);
        let Some(segment) = usize::try_from(length).ok().and_then(|l| after.get(..l)) else {
            return Some(Err("corrupt index: a segment is cut short".into()));
        };
        segments.push(segment);
        rest = &after[segment.len()..];
    }
    Some(Ok(segments))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_segments_split_back_and_a_cut_is_refused() {
        let segments: [&[u8]; 3] = [b"one", b"", b"three"];
        let joined = join(&segments);
        assert_eq!(split(&joined).unwrap().unwrap(), segments);
        assert!(split(b"\x02 a single segment").is_none());
        assert!(split(&joined[..joined.len() - 1]).unwrap().is_err());
        assert!(split(&joined[..TAG.len() + 3]).unwrap().is_err());
    }
}
