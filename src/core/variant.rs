//! The variant registry: the one list of variants, from which the `Variant` enum, the
//! dispatch to rules types (`with_rules!`), names and aliases, options and each variant's
//! shipped data are generated. Adding a variant is its rules (`core/rules/variants.rs`),
//! its data files (`book/<name>.book`) and one line in `for_each_variant!`.

use std::fmt;

use crate::core::rules::Rules;

/// The registry. It hands the list to `$then!`, so each layer generates what it needs from
/// the same lines (this module: the enum, names and dispatch; the engine: the shipped books).
///
/// `variants`: the `Variant` name, its rules type, then its names, canonical first (the
/// shipped data is found by the canonical name). `options`: a variant with one option
/// changed, its rules type, the variant it modifies, the option's name and its value here
/// (the base variant has the other value).
#[macro_export]
macro_rules! for_each_variant {
    ($head:tt $(:: $tail:ident)* $(, $arg:tt)*) => {
        $head $(:: $tail)*! {
            ($($arg),*)
            variants {
                English = $crate::core::rules::English: "english" "american" "checkers";
                AntiEnglish = $crate::core::rules::AntiEnglish: "anti-english" "giveaway" "antidraughts-english";
                Czech = $crate::core::rules::Czech: "czech";
                Russian = $crate::core::rules::Russian: "russian";
                Brazilian = $crate::core::rules::Brazilian: "brazilian";
                International = $crate::core::rules::International: "international" "normal" "standard";
                Frisian = $crate::core::rules::Frisian: "frisian";
                Frysk = $crate::core::rules::Frysk: "frysk" "frysk!";
                Antidraughts = $crate::core::rules::Antidraughts: "antidraughts" "losing";
                Breakthrough = $crate::core::rules::Breakthrough: "breakthrough" "bt";
                Killer = $crate::core::rules::Killer: "killer";
                Canadian = $crate::core::rules::Canadian: "canadian";
                Thai = $crate::core::rules::Thai: "thai";
                Portuguese = $crate::core::rules::Portuguese: "portuguese";
                Italian = $crate::core::rules::Italian: "italian";
                Turkish = $crate::core::rules::Turkish: "turkish";
                Gothic = $crate::core::rules::Gothic: "gothic";
                Dameo = $crate::core::rules::Dameo: "dameo";
                Hawaiian = $crate::core::rules::Hawaiian: "hawaiian" "konane";
                Alquerque = $crate::core::rules::Alquerque: "alquerque";
                Corner = $crate::core::rules::Corner: "corner";
                OneWay = $crate::core::rules::OneWay: "one-way" "oneway";
                Parachute = $crate::core::rules::Parachute: "parachute";
            }
            options {
                EnglishFreeCapture = $crate::core::rules::EnglishRules<false>: English "mandatory-capture" false;
                TurkishCrownContinues = $crate::core::rules::TurkishRules<true>: Turkish "crown-continues" true;
            }
        }
    };
}

macro_rules! define_variants {
    (
        ()
        variants { $($id:ident = $rules:ty: $canonical:literal $($alias:literal)*;)* }
        options { $($oid:ident = $orules:ty: $base:ident $option:literal $value:literal;)* }
    ) => {
        /// A playable rule set, with its options folded in (each option value is its own
        /// rules type).
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub enum Variant {
            $($id,)*
            $($oid,)*
        }

        impl Variant {
            /// Canonical names, one per rule set (options not counted).
            pub const NAMES: &'static [&'static str] = &[$($canonical),*];

            /// One variant per canonical name, options at their defaults.
            pub const ALL: &'static [Variant] = &[$(Variant::$id),*];

            /// Every name and alias, with its variant.
            const ALIASES: &'static [(&'static str, Variant)] =
                &[$(($canonical, Variant::$id), $(($alias, Variant::$id),)*)*];

            /// Each option variant: itself, the variant it modifies, the option and its value.
            const OPTIONS: &'static [(Variant, Variant, &'static str, bool)] =
                &[$((Variant::$oid, Variant::$base, $option, $value)),*];
        }

    };
}

for_each_variant!(define_variants);

/// Run `$body` with `$R` bound to the rules type of `$v`.
#[macro_export]
macro_rules! with_rules {
    ($v:expr, $R:ident => $body:expr) => {
        $crate::for_each_variant!($crate::__dispatch_rules, $v, $R, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch_rules {
    (
        ($v:expr, $R:ident, $body:expr)
        variants { $($id:ident = $rules:ty: $canonical:literal $($alias:literal)*;)* }
        options { $($oid:ident = $orules:ty: $base:ident $option:literal $value:literal;)* }
    ) => {{
        use $crate::core::variant::Variant as V;
        match $v {
            $(V::$id => {
                type $R = $rules;
                $body
            })*
            $(V::$oid => {
                type $R = $orules;
                $body
            })*
        }
    }};
}

/// Why a variant name or option was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VariantError {
    Unknown(String),
    UnknownOption(String),
    BadOptionValue { option: String, value: String },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Unknown(n) => write!(
                f,
                "unknown variant '{n}' (known: {})",
                Variant::NAMES.join(", ")
            ),
            VariantError::UnknownOption(o) => write!(f, "unknown option '{o}' for this variant"),
            VariantError::BadOptionValue { option, value } => {
                write!(f, "bad value '{value}' for option '{option}'")
            }
        }
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    /// Accepts canonical names and the aliases clients send (Scan's `normal`, pydraughts'
    /// `standard`, `american`, `checkers`, `giveaway`).
    pub fn from_name(name: &str) -> Result<Variant, VariantError> {
        let wanted = name.trim().to_ascii_lowercase();
        Variant::ALIASES
            .iter()
            .find(|(n, _)| *n == wanted)
            .map(|&(_, v)| v)
            .ok_or_else(|| VariantError::Unknown(name.to_string()))
    }

    /// The variant with every option at its default.
    pub fn base(self) -> Variant {
        Variant::OPTIONS
            .iter()
            .find(|o| o.0 == self)
            .map_or(self, |o| o.1)
    }

    /// The name with the options that differ from their defaults (`english`,
    /// `english mandatory-capture=false`): what data files made for one rule set carry.
    pub fn key(self) -> String {
        match Variant::OPTIONS.iter().find(|o| o.0 == self) {
            Some(&(_, _, option, value)) => format!("{} {option}={value}", self.name()),
            None => self.name().to_string(),
        }
    }

    /// The options this variant takes, with their current values.
    pub fn options(self) -> Vec<(&'static str, bool)> {
        let base = self.base();
        Variant::OPTIONS
            .iter()
            .filter(|o| o.1 == base)
            .map(|&(v, _, name, value)| (name, if v == self { value } else { !value }))
            .collect()
    }

    /// The same rule set with one option changed.
    pub fn with_option(self, option: &str, value: &str) -> Result<Variant, VariantError> {
        let on = match value.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => true,
            "false" | "off" | "no" | "0" => false,
            _ => {
                return Err(VariantError::BadOptionValue {
                    option: option.to_string(),
                    value: value.to_string(),
                })
            }
        };
        let base = self.base();
        let &(v, _, _, value) = Variant::OPTIONS
            .iter()
            .find(|o| o.1 == base && o.2 == option)
            .ok_or_else(|| VariantError::UnknownOption(option.to_string()))?;
        Ok(if on == value { v } else { base })
    }

    pub fn name(self) -> &'static str {
        with_rules!(self, R => R::NAME)
    }

    pub fn summary(self) -> &'static str {
        with_rules!(self, R => R::SUMMARY)
    }

    /// Every rule assumption this variant's data makes.
    pub fn assumptions(self) -> &'static [&'static str] {
        with_rules!(self, R => R::ASSUMPTIONS)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
