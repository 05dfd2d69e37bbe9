//! The run-time list of variants, and the one place that turns a name into a rules type.

use std::fmt;

use crate::core::rules::Rules;

/// A playable rule set, with its options folded in (each option value is its own rules type).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    English,
    EnglishFreeCapture,
    AntiEnglish,
    Czech,
    Russian,
    Brazilian,
    International,
    Canadian,
    Thai,
    Portuguese,
    Italian,
    Turkish,
    TurkishCrownContinues,
    Gothic,
    Dameo,
    Hawaiian,
    Alquerque,
    Corner,
    OneWay,
    Parachute,
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

/// Run `$body` with `$R` bound to the rules type of `$v`.
#[macro_export]
macro_rules! with_rules {
    ($v:expr, $R:ident => $body:expr) => {{
        use $crate::core::rules as r;
        use $crate::core::variant::Variant as V;
        match $v {
            V::English => {
                type $R = r::English;
                $body
            }
            V::EnglishFreeCapture => {
                type $R = r::EnglishFreeCapture;
                $body
            }
            V::AntiEnglish => {
                type $R = r::AntiEnglish;
                $body
            }
            V::Czech => {
                type $R = r::Czech;
                $body
            }
            V::Russian => {
                type $R = r::Russian;
                $body
            }
            V::Brazilian => {
                type $R = r::Brazilian;
                $body
            }
            V::International => {
                type $R = r::International;
                $body
            }
            V::Canadian => {
                type $R = r::Canadian;
                $body
            }
            V::Thai => {
                type $R = r::Thai;
                $body
            }
            V::Portuguese => {
                type $R = r::Portuguese;
                $body
            }
            V::Italian => {
                type $R = r::Italian;
                $body
            }
            V::Turkish => {
                type $R = r::Turkish;
                $body
            }
            V::TurkishCrownContinues => {
                type $R = r::TurkishCrownContinues;
                $body
            }
            V::Gothic => {
                type $R = r::Gothic;
                $body
            }
            V::Dameo => {
                type $R = r::Dameo;
                $body
            }
            V::Hawaiian => {
                type $R = r::Hawaiian;
                $body
            }
            V::Alquerque => {
                type $R = r::Alquerque;
                $body
            }
            V::Corner => {
                type $R = r::Corner;
                $body
            }
            V::OneWay => {
                type $R = r::OneWay;
                $body
            }
            V::Parachute => {
                type $R = r::Parachute;
                $body
            }
        }
    }};
}

impl Variant {
    /// Canonical names, one per rule set (options not counted).
    pub const NAMES: &'static [&'static str] = &[
        "english",
        "anti-english",
        "czech",
        "russian",
        "brazilian",
        "international",
        "canadian",
        "thai",
        "portuguese",
        "italian",
        "turkish",
        "gothic",
        "dameo",
        "hawaiian",
        "alquerque",
        "corner",
        "one-way",
        "parachute",
    ];

    /// One variant per canonical name, options at their defaults.
    pub const ALL: &'static [Variant] = &[
        Variant::English,
        Variant::AntiEnglish,
        Variant::Czech,
        Variant::Russian,
        Variant::Brazilian,
        Variant::International,
        Variant::Canadian,
        Variant::Thai,
        Variant::Portuguese,
        Variant::Italian,
        Variant::Turkish,
        Variant::Gothic,
        Variant::Dameo,
        Variant::Hawaiian,
        Variant::Alquerque,
        Variant::Corner,
        Variant::OneWay,
        Variant::Parachute,
    ];

    /// Accepts canonical names and the aliases clients send (Scan's `normal`, pydraughts'
    /// `standard`, `american`, `checkers`, `giveaway`).
    pub fn from_name(name: &str) -> Result<Variant, VariantError> {
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "english" | "american" | "checkers" => Variant::English,
            "anti-english" | "giveaway" | "antidraughts-english" => Variant::AntiEnglish,
            "czech" => Variant::Czech,
            "russian" => Variant::Russian,
            "brazilian" => Variant::Brazilian,
            "international" | "normal" | "standard" => Variant::International,
            "canadian" => Variant::Canadian,
            "thai" => Variant::Thai,
            "portuguese" => Variant::Portuguese,
            "italian" => Variant::Italian,
            "turkish" => Variant::Turkish,
            "gothic" => Variant::Gothic,
            "dameo" => Variant::Dameo,
            "hawaiian" | "konane" => Variant::Hawaiian,
            "alquerque" => Variant::Alquerque,
            "corner" => Variant::Corner,
            "one-way" | "oneway" => Variant::OneWay,
            "parachute" => Variant::Parachute,
            _ => return Err(VariantError::Unknown(name.to_string())),
        })
    }

    pub fn name(self) -> &'static str {
        with_rules!(self, R => R::NAME)
    }

    pub fn summary(self) -> &'static str {
        with_rules!(self, R => R::SUMMARY)
    }

    /// The options this variant takes, with their current values.
    pub fn options(self) -> Vec<(&'static str, bool)> {
        match self {
            Variant::English => vec![("mandatory-capture", true)],
            Variant::EnglishFreeCapture => vec![("mandatory-capture", false)],
            Variant::Turkish => vec![("crown-continues", false)],
            Variant::TurkishCrownContinues => vec![("crown-continues", true)],
            _ => vec![],
        }
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
        match (self, option) {
            (Variant::English | Variant::EnglishFreeCapture, "mandatory-capture") => Ok(if on {
                Variant::English
            } else {
                Variant::EnglishFreeCapture
            }),
            (Variant::Turkish | Variant::TurkishCrownContinues, "crown-continues") => Ok(if on {
                Variant::TurkishCrownContinues
            } else {
                Variant::Turkish
            }),
            _ => Err(VariantError::UnknownOption(option.to_string())),
        }
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
