//! The one place the command line spells the library's choices: [`clap::ValueEnum`] for
//! [`Algorithm`], [`Heuristic`] and [`Optimality`], named by their `Display` (the same names
//! their `FromStr` takes), so `npuzzle-client` and `npuzzle-bench` take the library's types as
//! flags and list their possible values, with no enum of their own to keep in step.
//!
//! It lives here rather than in `solver` because clap is a dependency of the service side only:
//! the search core builds without it.

use std::fmt::Display;
use std::sync::LazyLock;

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::solver::{Algorithm, Heuristic, Optimality};

/// Every [`Algorithm`], in the order the help lists them.
const ALGORITHMS: [Algorithm; 3] = [Algorithm::Auto, Algorithm::AStar, Algorithm::IdaStar];

/// Every [`Heuristic`], in the order the help lists them.
const HEURISTICS: [Heuristic; 5] =
    [Heuristic::Auto, Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::PatternDatabase];

/// Every [`Optimality`], in the order the help lists them.
const OPTIMALITIES: [Optimality; 4] = [Optimality::Minimum, Optimality::Bounded, Optimality::Fast, Optimality::Anytime];

/// The `Display` names of `all`, in its order, made once: clap's [`PossibleValue`] borrows its
/// name for `'static`.
fn names<T: Display>(all: &[T]) -> Vec<String> {
    all.iter().map(T::to_string).collect()
}

static ALGORITHM_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| names(&ALGORITHMS));
static HEURISTIC_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| names(&HEURISTICS));
static OPTIMALITY_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| names(&OPTIMALITIES));

/// The command line's value for `value`: the name at its place in `all`.
fn possible_value<T: PartialEq>(value: &T, all: &[T], names: &'static [String]) -> Option<PossibleValue> {
    let index = all.iter().position(|candidate| candidate == value)?;
    Some(PossibleValue::new(names[index].as_str()))
}

impl ValueEnum for Algorithm {
    fn value_variants<'a>() -> &'a [Algorithm] {
        &ALGORITHMS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        possible_value(self, &ALGORITHMS, &ALGORITHM_NAMES)
    }
}

impl ValueEnum for Heuristic {
    fn value_variants<'a>() -> &'a [Heuristic] {
        &HEURISTICS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        possible_value(self, &HEURISTICS, &HEURISTIC_NAMES)
    }
}

impl ValueEnum for Optimality {
    fn value_variants<'a>() -> &'a [Optimality] {
        &OPTIMALITIES
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        possible_value(self, &OPTIMALITIES, &OPTIMALITY_NAMES)
    }
}
