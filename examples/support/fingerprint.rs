//! A data file's fingerprint, kept with a replay so that a replay on the file once
//! edited is refused.

/// A 64-bit FNV-1a hash of `bytes`: stable across builds, platforms and Rust versions (the
/// standard library's hasher is not), which a fingerprint kept in a file needs.
#[must_use]
pub fn fingerprint(bytes: &[u8]) -> u64 {
    /// FNV-1a's 64-bit offset basis and prime.
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}
