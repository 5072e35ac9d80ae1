//! Lower bounds on the moves left, each an [`Estimator`] updated from the moved tile alone.
//!
//! - [`estimator`]: the [`Estimator`] trait the searches are generic over.
//! - [`manhattan`]: per-tile distances, Hamming and Manhattan.
//! - [`linear_conflict`]: Manhattan plus two moves per conflicting pair in a row or column.
//!
//! Pattern databases are an `Estimator` too; they live in [`pdb`](super::pdb) with their tables.

pub mod estimator;
pub mod linear_conflict;
pub mod manhattan;

pub use estimator::Estimator;
