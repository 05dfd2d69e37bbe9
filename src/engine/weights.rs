//! The trained weights built into the binary, one file per variant (`book/<name>.weights`,
//! with how it was made in `book/<name>.weights.txt`), parsed on first use.

use once_cell::sync::OnceCell;

use crate::core::variant::Variant;
use crate::search::trained::TrainedWeights;
use crate::with_rules;

/// Generates [`SHIPPED`] from the variant registry.
macro_rules! shipped_weights {
    (
        ()
        variants { $($id:ident = $rules:ty: $canonical:literal $($alias:literal)*;)* }
        options { $($options:tt)* }
    ) => {
        const SHIPPED: &[(Variant, &[u8])] = &[
            $((Variant::$id, include_bytes!(concat!("../../book/", $canonical, ".weights"))),)*
        ];
    };
}

crate::for_each_variant!(shipped_weights);

static LOADED: [OnceCell<Option<TrainedWeights>>; SHIPPED.len()] =
    [const { OnceCell::new() }; SHIPPED.len()];

/// The weights shipped for `variant`, if it has trained ones (a variant option that changes
/// the rules has none: it plays with the hand-made evaluation).
pub fn shipped(variant: Variant) -> Option<&'static TrainedWeights> {
    let i = SHIPPED.iter().position(|(v, _)| *v == variant)?;
    LOADED[i]
        .get_or_init(|| {
            with_rules!(variant, R => TrainedWeights::from_bytes::<R>(SHIPPED[i].1, &variant.key()))
                .ok()
                .filter(|w| !w.is_zero())
        })
        .as_ref()
}

/// The raw bytes of the file shipped for `variant`.
pub fn shipped_bytes(variant: Variant) -> Option<&'static [u8]> {
    SHIPPED.iter().find(|(v, _)| *v == variant).map(|(_, b)| *b)
}
