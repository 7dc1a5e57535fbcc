//! Host bindings. Each translates host values in and results out; none holds a rule.

#[cfg(feature = "js")]
pub mod js;

#[cfg(feature = "component")]
mod component;
