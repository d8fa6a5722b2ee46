//! Board geometries shared by games. [`hex`]: the hexagonal GIPF board with its ring of dots.

pub mod hex;
