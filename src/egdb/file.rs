//! The file of one slice: a header, values in blocks (each packed at two bits a value or
//! run-length coded, whichever is smaller), a block offset table and a checksum.
//!
//! Layout, little-endian:
//!
//! ```text
//! magic "DAMASWDL" | version u16 | variant key: len u16, bytes | material: 4 × u8
//! (white men, white kings, black men, black kings) | positions u64 |
//! counts: win, draw, loss, hole u64 × 4 | values per block u32 | blocks u32 |
//! block offsets (blocks + 1) × u32, from the start of the payload | payload |
//! FNV-1a 64 of every byte before it, u64
//! ```
//!
//! A block starts with its mode byte: 0 packed (four values a byte, low bits first), 1 runs
//! (each run a byte `value | (length − 1) << 2` for lengths up to 63, or `value | 0xfc`
//! followed by length − 64 in LEB128).

use std::path::Path;

use super::index::Material;
use super::{EgdbError, Value};

pub const MAGIC: &[u8; 8] = b"DAMASWDL";
pub const VERSION: u16 = 1;
pub const BLOCK: usize = 1 << 14;

/// Win, draw, loss and hole counts.
pub type Counts = [u64; 4];

/// What a file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: String,
    pub material: Material,
    pub positions: u64,
    pub counts: Counts,
}

/// Two-bit values, four a byte.
#[derive(Clone, Debug, Default)]
pub struct Packed {
    pub bytes: Vec<u8>,
    pub len: u64,
}

impl Packed {
    pub fn new(len: u64) -> Self {
        Packed {
            bytes: vec![0; len.div_ceil(4) as usize],
            len,
        }
    }
    #[inline(always)]
    pub fn get(&self, i: u64) -> u8 {
        (self.bytes[(i >> 2) as usize] >> ((i & 3) * 2)) & 3
    }
    #[inline(always)]
    pub fn set(&mut self, i: u64, v: u8) {
        let b = &mut self.bytes[(i >> 2) as usize];
        let s = (i & 3) * 2;
        *b = (*b & !(3 << s)) | ((v & 3) << s);
    }
}

pub fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn encode_block(values: &[u8], out: &mut Vec<u8>) {
    let mut runs = vec![1u8];
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        let mut j = i + 1;
        while j < values.len() && values[j] == v {
            j += 1;
        }
        let len = j - i;
        if len <= 63 {
            runs.push(v | ((len - 1) as u8) << 2);
        } else {
            runs.push(v | 0xfc);
            let mut rest = (len - 64) as u64;
            loop {
                let byte = (rest & 0x7f) as u8;
                rest >>= 7;
                if rest == 0 {
                    runs.push(byte);
                    break;
                }
                runs.push(byte | 0x80);
            }
        }
        i = j;
    }
    let packed_len = 1 + values.len().div_ceil(4);
    if runs.len() < packed_len {
        out.extend_from_slice(&runs);
    } else {
        out.push(0);
        for chunk in values.chunks(4) {
            let mut b = 0u8;
            for (k, &v) in chunk.iter().enumerate() {
                b |= v << (2 * k);
            }
            out.push(b);
        }
    }
}

/// Decode one block of `n` values into `out` from position `start`.
fn decode_block(data: &[u8], n: usize, start: u64, out: &mut Packed) -> Result<(), String> {
    let (&mode, rest) = data.split_first().ok_or("empty block")?;
    match mode {
        0 => {
            if rest.len() != n.div_ceil(4) {
                return Err("packed block of the wrong length".into());
            }
            for k in 0..n {
                out.set(start + k as u64, (rest[k / 4] >> (2 * (k % 4))) & 3);
            }
        }
        1 => {
            let mut k = 0usize;
            let mut p = 0usize;
            while p < rest.len() {
                let b = rest[p];
                p += 1;
                let v = b & 3;
                let len = if b & 0xfc == 0xfc {
                    let mut len = 0u64;
                    let mut shift = 0;
                    loop {
                        let &x = rest.get(p).ok_or("truncated run length")?;
                        p += 1;
                        if shift > 56 {
                            return Err("run length too long".into());
                        }
                        len |= ((x & 0x7f) as u64) << shift;
                        shift += 7;
                        if x & 0x80 == 0 {
                            break;
                        }
                    }
                    len as usize + 64
                } else {
                    (b >> 2) as usize + 1
                };
                if k + len > n {
                    return Err("runs overflow their block".into());
                }
                for j in 0..len {
                    out.set(start + (k + j) as u64, v);
                }
                k += len;
            }
            if k != n {
                return Err("runs do not fill their block".into());
            }
        }
        _ => return Err(format!("unknown block mode {mode}")),
    }
    Ok(())
}

/// The variant key (u16 length, bytes) and material (4 bytes) that name a slice in both
/// kinds of file.
fn push_slice_key(out: &mut Vec<u8>, variant: &str, material: Material) {
    out.extend_from_slice(&(variant.len() as u16).to_le_bytes());
    out.extend_from_slice(variant.as_bytes());
    out.extend_from_slice(&[
        material.men[0],
        material.kings[0],
        material.men[1],
        material.kings[1],
    ]);
}

/// `data` without its trailing checksum, once its magic and checksum are right.
fn checked_body<'a>(
    path: &Path,
    data: &'a [u8],
    magic: &[u8; 8],
    what: &str,
) -> Result<&'a [u8], EgdbError> {
    if data.len() < magic.len() + 8 || &data[..magic.len()] != magic {
        return Err(EgdbError::Corrupt {
            path: path.to_path_buf(),
            reason: format!("not {what} (bad magic or too short)"),
        });
    }
    let (body, sum) = data.split_at(data.len() - 8);
    let mut stored = [0u8; 8];
    stored.copy_from_slice(sum);
    if fnv1a(body) != u64::from_le_bytes(stored) {
        return Err(EgdbError::Checksum {
            path: path.to_path_buf(),
        });
    }
    Ok(body)
}

/// The bytes of a slice's file.
pub fn encode(variant: &str, material: Material, values: &Packed) -> Vec<u8> {
    let mut counts = [0u64; 4];
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    push_slice_key(&mut out, variant, material);
    out.extend_from_slice(&values.len.to_le_bytes());
    let counts_at = out.len();
    out.extend_from_slice(&[0u8; 32]);
    let blocks = values.len.div_ceil(BLOCK as u64) as usize;
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks as u32).to_le_bytes());
    let mut payload = Vec::new();
    let mut offsets = vec![0u32];
    let mut buf = Vec::with_capacity(BLOCK);
    for b in 0..blocks {
        let start = (b * BLOCK) as u64;
        let end = (start + BLOCK as u64).min(values.len);
        buf.clear();
        for i in start..end {
            let v = values.get(i);
            counts[code_slot(v)] += 1;
            buf.push(v);
        }
        encode_block(&buf, &mut payload);
        offsets.push(payload.len() as u32);
    }
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&payload);
    for (k, c) in counts.iter().enumerate() {
        out[counts_at + 8 * k..counts_at + 8 * k + 8].copy_from_slice(&c.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Slot of a stored code in [`Counts`]: win, draw, loss, hole.
fn code_slot(code: u8) -> usize {
    match Value::from_code(code) {
        Value::Win => 0,
        Value::Draw => 1,
        Value::Loss => 2,
        Value::Invalid => 3,
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).ok_or("length overflow")?;
        let s = self.data.get(self.at..end).ok_or("file too short")?;
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
}

/// Check the checksum and read the header; returns where the block table starts.
fn read_header(path: &Path, data: &[u8]) -> Result<(Header, usize), EgdbError> {
    let corrupt = |reason: String| EgdbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let body = checked_body(path, data, MAGIC, "an endgame table")?;
    let mut r = Reader {
        data: body,
        at: MAGIC.len(),
    };
    let header = (|| -> Result<Header, String> {
        let version = r.u16()?;
        if version != VERSION {
            return Err(format!("format version {version}, expected {VERSION}"));
        }
        let n = r.u16()? as usize;
        let variant = String::from_utf8(r.take(n)?.to_vec()).map_err(|_| "bad variant name")?;
        let m = r.take(4)?;
        let material = Material::new(m[0], m[1], m[2], m[3]);
        let positions = r.u64()?;
        let mut counts = [0u64; 4];
        for c in &mut counts {
            *c = r.u64()?;
        }
        Ok(Header {
            variant,
            material,
            positions,
            counts,
        })
    })()
    .map_err(corrupt)?;
    Ok((header, r.at))
}

/// The header of a file, checksum checked.
pub fn read_file_header(path: &Path) -> Result<Header, EgdbError> {
    let data = read_bytes(path)?;
    Ok(read_header(path, &data)?.0)
}

pub fn read_bytes(path: &Path) -> Result<Vec<u8>, EgdbError> {
    std::fs::read(path).map_err(|e| read_error(path, e))
}

/// A file not there is `Missing`; any other failure to read it `Io`.
fn read_error(path: &Path, e: std::io::Error) -> EgdbError {
    if e.kind() == std::io::ErrorKind::NotFound {
        EgdbError::Missing {
            path: path.to_path_buf(),
        }
    } else {
        EgdbError::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }
    }
}

/// Read and decode a whole file; checks the variant, the material and the size.
pub fn decode(
    path: &Path,
    data: &[u8],
    variant: &str,
    material: Material,
    positions: u64,
) -> Result<(Header, Packed), EgdbError> {
    let (header, at) = read_header(path, data)?;
    let corrupt = |reason: String| EgdbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    if header.variant != variant {
        return Err(EgdbError::WrongVariant {
            path: path.to_path_buf(),
            found: header.variant,
            expected: variant.to_string(),
        });
    }
    if header.material != material {
        return Err(corrupt(format!(
            "holds {} where {} was expected",
            header.material, material
        )));
    }
    if header.positions != positions {
        return Err(corrupt(format!(
            "{} positions where {positions} were expected",
            header.positions
        )));
    }
    let body = &data[..data.len() - 8];
    let mut r = Reader { data: body, at };
    let block = r.u32().map_err(corrupt)? as usize;
    let blocks = r.u32().map_err(corrupt)? as usize;
    if block == 0 || (blocks as u64) != positions.div_ceil(block as u64) {
        return Err(corrupt("block table does not match the size".into()));
    }
    let mut offsets = Vec::with_capacity(blocks + 1);
    for _ in 0..=blocks {
        offsets.push(r.u32().map_err(corrupt)? as usize);
    }
    let payload = &body[r.at..];
    if offsets.last() != Some(&payload.len()) || offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(corrupt("block offsets do not match the payload".into()));
    }
    let mut values = Packed::new(positions);
    for b in 0..blocks {
        let start = (b * block) as u64;
        let n = (positions - start).min(block as u64) as usize;
        decode_block(&payload[offsets[b]..offsets[b + 1]], n, start, &mut values)
            .map_err(|e| corrupt(format!("block {b}: {e}")))?;
    }
    Ok((header, values))
}

pub const DISTANCE_MAGIC: &[u8; 8] = b"DAMASDTC";
pub const DISTANCE_VERSION: u16 = 2;
/// Distances per compressed chunk: small enough to compress on every thread, large enough
/// for deflate to find the repeats.
pub const DISTANCE_CHUNK: usize = 1 << 20;

/// A distance file: magic, version u16, variant key (u16 length, bytes), material (4 bytes),
/// positions u64, chunk size u32, chunks u32, chunk offsets (chunks + 1) × u64 from the start
/// of the payload, the payload (each chunk of one byte a position — plies to the slice's
/// end, 255 at most — deflated), FNV-1a 64 of every byte before it.
pub fn encode_distances(variant: &str, material: Material, d: &[u8]) -> Vec<u8> {
    use rayon::prelude::*;
    let chunks: Vec<Vec<u8>> = d
        .par_chunks(DISTANCE_CHUNK)
        .map(|c| miniz_oxide::deflate::compress_to_vec(c, 6))
        .collect();
    let mut out = distance_head(variant, material, d.len() as u64);
    out.extend_from_slice(&(DISTANCE_CHUNK as u32).to_le_bytes());
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let mut at = 0u64;
    out.extend_from_slice(&at.to_le_bytes());
    for c in &chunks {
        at += c.len() as u64;
        out.extend_from_slice(&at.to_le_bytes());
    }
    for c in &chunks {
        out.extend_from_slice(c);
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Magic, version, slice key and size: what names a distance file's slice.
fn distance_head(variant: &str, material: Material, positions: u64) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(DISTANCE_MAGIC);
    out.extend_from_slice(&DISTANCE_VERSION.to_le_bytes());
    push_slice_key(&mut out, variant, material);
    out.extend_from_slice(&positions.to_le_bytes());
    out
}

/// Whether the file at `path` starts as the distance file of this slice (its head only; the
/// checksum is checked where the distances are read).
pub fn distance_file_names(
    path: &Path,
    variant: &str,
    material: Material,
    positions: u64,
) -> Result<(), EgdbError> {
    use std::io::Read;
    let want = distance_head(variant, material, positions);
    let mut head = vec![0u8; want.len()];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    match read {
        Ok(()) if head == want => Ok(()),
        Ok(()) => Err(not_distances_of(path, variant, material)),
        Err(e) => Err(read_error(path, e)),
    }
}

fn not_distances_of(path: &Path, variant: &str, material: Material) -> EgdbError {
    EgdbError::Corrupt {
        path: path.to_path_buf(),
        reason: format!("not the distances of {variant} {material} (format {DISTANCE_VERSION})"),
    }
}

/// Read a distance file back, checking it against the slice it belongs to.
pub fn decode_distances(
    path: &Path,
    data: &[u8],
    variant: &str,
    material: Material,
    positions: u64,
) -> Result<Vec<u8>, EgdbError> {
    let corrupt = |reason: String| EgdbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let body = checked_body(path, data, DISTANCE_MAGIC, "a distance file")?;
    let want = distance_head(variant, material, positions);
    if body.len() < want.len() || body[..want.len()] != want[..] {
        return Err(not_distances_of(path, variant, material));
    }
    let mut r = Reader {
        data: body,
        at: want.len(),
    };
    let chunk = r.u32().map_err(corrupt)? as usize;
    let chunks = r.u32().map_err(corrupt)? as usize;
    if chunk == 0 || chunks as u64 != positions.div_ceil(chunk as u64) {
        return Err(corrupt("chunk table does not match the size".into()));
    }
    let mut offsets = Vec::with_capacity(chunks + 1);
    for _ in 0..=chunks {
        offsets.push(r.u64().map_err(corrupt)?);
    }
    let payload = &body[r.at..];
    if offsets.last() != Some(&(payload.len() as u64)) || offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(corrupt("chunk offsets do not match the payload".into()));
    }
    let mut out = Vec::with_capacity(positions as usize);
    for k in 0..chunks {
        let want = (positions - (k * chunk) as u64).min(chunk as u64) as usize;
        let packed = &payload[offsets[k] as usize..offsets[k + 1] as usize];
        let d = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, want)
            .map_err(|e| corrupt(format!("chunk {k}: {e}")))?;
        if d.len() != want {
            return Err(corrupt(format!("chunk {k} holds {} distances", d.len())));
        }
        out.extend_from_slice(&d);
    }
    Ok(out)
}
