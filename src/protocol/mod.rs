//! Text command protocols: interpreters that read commands and print answers, built on the
//! games and solvers. [`gipf`]: the GIPF assignment's interpreter.

pub mod gipf;
