//! The weights file: what `damas train` writes, `eval-file` reads and the binary ships.
//!
//! Little-endian, sparse (untrained weights are zero and left out):
//!
//! ```text
//! b"DAMASW1\n"                      magic and format version
//! u8 n, n bytes                      the variant's name (with options, e.g. `english`)
//! u32                                the number of weights the variant's features have
//! u32                                the number of entries that follow
//! entries: u32 index, i16 opening, i16 ending   (eighths of a hundredth of a man)
//! ```

use std::fmt;
use std::sync::OnceLock;

use crate::core::rules::Rules;
use crate::search::trained::{fold, Frames, WindowTable};

const MAGIC: &[u8; 8] = b"DAMASW1\n";

/// Trained weights for one variant: an opening and an ending value per feature.
#[derive(Clone, Debug)]
pub struct TrainedWeights {
    pub variant: String,
    values: Vec<[i16; 2]>,
    /// The pattern tables the search reads, built from `values` on first use (see
    /// [`fold`]); cleared whenever `values` may change.
    folded: OnceLock<Vec<WindowTable>>,
}

impl PartialEq for TrainedWeights {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant && self.values == other.values
    }
}

impl Eq for TrainedWeights {}

/// Why a weights file was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum WeightsError {
    NotAWeightsFile,
    Truncated,
    WrongVariant { file: String, wanted: String },
    WrongSize { file: usize, wanted: usize },
    BadIndex(u32),
    Io(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotAWeightsFile => write!(f, "not a Damas weights file"),
            WeightsError::Truncated => write!(f, "the weights file is cut short"),
            WeightsError::WrongVariant { file, wanted } => {
                write!(f, "the weights are for {file}, not {wanted}")
            }
            WeightsError::WrongSize { file, wanted } => write!(
                f,
                "the weights file has {file} weights where this variant has {wanted}"
            ),
            WeightsError::BadIndex(i) => write!(f, "weight index {i} is out of range"),
            WeightsError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WeightsError {}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WeightsError> {
        let end = self.at.checked_add(n).ok_or(WeightsError::Truncated)?;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or(WeightsError::Truncated)?;
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, WeightsError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i16(&mut self) -> Result<i16, WeightsError> {
        let b = self.take(2)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
}

impl TrainedWeights {
    pub fn new(variant: &str, values: Vec<[i16; 2]>) -> Self {
        TrainedWeights {
            variant: variant.to_string(),
            values,
            folded: OnceLock::new(),
        }
    }

    /// All-zero weights for variant `R` (named `name`).
    pub fn zero<R: Rules>(name: &str) -> Self {
        TrainedWeights::new(name, vec![[0, 0]; R::WEIGHT_COUNT])
    }

    /// The opening and ending value of each feature.
    pub fn values(&self) -> &[[i16; 2]] {
        &self.values
    }

    pub fn values_mut(&mut self) -> &mut [[i16; 2]] {
        self.folded = OnceLock::new();
        &mut self.values
    }

    /// The folded pattern tables of variant `R`, whose weights these must be.
    #[inline]
    pub(super) fn folded<R: Rules>(&self) -> &[WindowTable] {
        self.folded.get_or_init(|| fold::<R>(&self.values))
    }

    /// Whether every weight is zero (a placeholder: no training yet).
    pub fn is_zero(&self) -> bool {
        self.values.iter().all(|v| *v == [0, 0])
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let name = self.variant.as_bytes();
        out.push(name.len().min(255) as u8);
        out.extend_from_slice(&name[..name.len().min(255)]);
        out.extend_from_slice(&(self.values.len() as u32).to_le_bytes());
        let nonzero: Vec<(usize, [i16; 2])> = self
            .values
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, v)| *v != [0, 0])
            .collect();
        out.extend_from_slice(&(nonzero.len() as u32).to_le_bytes());
        for (i, v) in nonzero {
            out.extend_from_slice(&(i as u32).to_le_bytes());
            out.extend_from_slice(&v[0].to_le_bytes());
            out.extend_from_slice(&v[1].to_le_bytes());
        }
        out
    }

    /// Read weights for variant `R`, named `name`; the file must match both.
    pub fn from_bytes<R: Rules>(bytes: &[u8], name: &str) -> Result<Self, WeightsError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8).map_err(|_| WeightsError::NotAWeightsFile)? != MAGIC {
            return Err(WeightsError::NotAWeightsFile);
        }
        let n = r.take(1)?[0] as usize;
        let variant = String::from_utf8_lossy(r.take(n)?).into_owned();
        if variant != name {
            return Err(WeightsError::WrongVariant {
                file: variant,
                wanted: name.to_string(),
            });
        }
        let count = r.u32()? as usize;
        if count != R::WEIGHT_COUNT {
            return Err(WeightsError::WrongSize {
                file: count,
                wanted: R::WEIGHT_COUNT,
            });
        }
        let entries = r.u32()? as usize;
        // Each entry takes 8 bytes: refuse a count the file cannot hold before allocating.
        if entries > (bytes.len() - r.at) / 8 {
            return Err(WeightsError::Truncated);
        }
        let mut values = vec![[0i16, 0i16]; count];
        for _ in 0..entries {
            let i = r.u32()?;
            let open = r.i16()?;
            let end = r.i16()?;
            *values
                .get_mut(i as usize)
                .ok_or(WeightsError::BadIndex(i))? = [open, end];
        }
        if r.at != bytes.len() {
            return Err(WeightsError::NotAWeightsFile);
        }
        Ok(TrainedWeights::new(&variant, values))
    }
}
