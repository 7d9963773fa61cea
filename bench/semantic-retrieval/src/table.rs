//! The static embedding table `distill.py` writes: a vector per WordPiece token.

use std::collections::HashMap;

/// The tokens' vectors, unit length, and their ids by text.
pub struct Table {
    dims: usize,
    ids: HashMap<String, u32>,
    vectors: Vec<f32>,
}

impl Table {
    /// Reads `b"QSE1"`, token count, dims, then per token: u16 length, UTF-8, f32 scale and
    /// `dims` signed bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let piece = bytes.get(at..at + n).ok_or("the table ends early")?;
            at += n;
            Ok(piece)
        };
        if take(4)? != b"QSE1" {
            return Err("not an embedding table".into());
        }
        let u32_at = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let count = u32_at(take(4)?) as usize;
        let dims = u32_at(take(4)?) as usize;
        let mut ids = HashMap::with_capacity(count);
        let mut vectors = Vec::with_capacity(count * dims);
        for id in 0..count {
            let length = take(2)?;
            let length = u16::from_le_bytes([length[0], length[1]]) as usize;
            let token = String::from_utf8(take(length)?.to_vec()).map_err(|e| e.to_string())?;
            let scale = take(4)?;
            let scale = f32::from_le_bytes([scale[0], scale[1], scale[2], scale[3]]);
            vectors.extend(take(dims)?.iter().map(|&b| b as i8 as f32 * scale));
            ids.insert(token, id as u32);
        }
        Ok(Self { dims, ids, vectors })
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The unit-length, `idf`-weighted mean of the tokens' vectors (zeros for no tokens).
    pub fn embed(&self, ids: &[u32], idf: &[f32]) -> Vec<f32> {
        let mut sum = vec![0f32; self.dims];
        for &id in ids {
            let weight = idf.get(id as usize).copied().unwrap_or(1.0);
            let vector = &self.vectors[id as usize * self.dims..(id as usize + 1) * self.dims];
            for (s, v) in sum.iter_mut().zip(vector) {
                *s += weight * v;
            }
        }
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            sum.iter_mut().for_each(|x| *x /= norm);
        }
        sum
    }
}
