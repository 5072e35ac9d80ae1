//! The solver as a library: every method optimal and in agreement, the spec's and Princeton's
//! examples, Korf's instances, and the pattern-database cache. One test binary for the area, a
//! module per concern.

#[path = "../support/mod.rs"]
mod support;

mod anysize;
mod catalogue;
mod korf;
mod optimality;
mod pattern_databases;
mod pdb24;
mod princeton;
mod puzzles;
mod solver_methods;
mod spec_examples;
