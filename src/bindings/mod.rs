//! Host bindings. Each translates host values in and results out; none holds a rule.

#[cfg(feature = "js")]
mod js;

#[cfg(feature = "component")]
mod component;
