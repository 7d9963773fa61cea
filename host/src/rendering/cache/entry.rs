//! A cache entry's bytes: a magic, a CRC-64/NVME of the payload, then the payload. The key
//! that names an entry (a SHA-256 of its inputs) says what it is; the checksum only has to
//! catch damage (a torn write, a disk error, two writers racing), and CRC-64 checks at many
//! times SHA-256's speed.

/// An entry: this magic, the CRC-64/NVME of the payload (little-endian), then the payload.
const MAGIC: &[u8; 4] = b"QRC2";
const CHECKSUM_LEN: usize = 8;
/// The magic of the earlier format (a SHA-256 in place of the checksum): such an entry is
/// made again, as a miss rather than as damage.
const EARLIER_MAGIC: &[u8; 4] = b"QRC1";

/// An entry's bytes for `payload`.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(MAGIC.len() + CHECKSUM_LEN + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&checksum(payload));
    bytes.extend_from_slice(payload);
    bytes
}

/// Why an entry's bytes give no payload.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// Written by an earlier version of the format: not damaged, only no longer read.
    EarlierFormat,
    Damaged(&'static str),
}

/// The payload an entry holds, if its bytes are whole.
pub fn payload(bytes: &[u8]) -> Result<&[u8], Refused> {
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        return Err(if bytes.starts_with(EARLIER_MAGIC) {
            Refused::EarlierFormat
        } else {
            Refused::Damaged("not a render cache entry")
        });
    };
    if rest.len() < CHECKSUM_LEN {
        return Err(Refused::Damaged("truncated"));
    }
    let (sum, payload) = rest.split_at(CHECKSUM_LEN);
    if checksum(payload) != sum {
        return Err(Refused::Damaged("its contents do not match their checksum"));
    }
    Ok(payload)
}

/// The CRC-64/NVME of `payload`, as an entry stores it.
fn checksum(payload: &[u8]) -> [u8; CHECKSUM_LEN] {
    crc_fast::checksum(crc_fast::CrcAlgorithm::Crc64Nvme, payload).to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_written_and_a_damaged_one_is_refused() {
        let bytes = frame(b"a page");
        assert_eq!(payload(&bytes), Ok(&b"a page"[..]));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(matches!(payload(&damaged), Err(Refused::Damaged(_))));
        assert!(payload(&bytes[..10]).is_err());
        assert!(payload(b"").is_err());
        // An entry of the earlier format is a miss, not damage (no warning for each).
        let mut earlier = bytes.clone();
        earlier[..4].copy_from_slice(EARLIER_MAGIC);
        assert_eq!(payload(&earlier), Err(Refused::EarlierFormat));
    }
}
