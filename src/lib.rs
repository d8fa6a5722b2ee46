#![doc = include_str!("../README.md")]

pub mod bitboard;
pub mod checksum;
pub mod dataset;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub use game::capability;
pub mod games;
pub mod geometry;
pub mod graph;
pub mod lineio;
pub mod memory;
pub mod notation;
pub mod protocol;
pub mod results;
pub mod search;
pub mod unmove;
pub mod zobrist;

pub use bitboard::{Bitboard64, Bitboard128};
pub use capability::GameOption;
pub use capability::SearchHints;
pub use game::{ByPlayer, Evaluate, Game, MoveList, Outcome, Perft, Player, Scored};
pub use games::GameKind;
pub use games::ataxx::{Ataxx, AtaxxMove, AtaxxPolish, AtaxxStandard};
pub use games::connect4::Connect4;
pub use games::digraph::Digraph;
pub use games::gauss::{Gauss, GaussMove};
pub use games::geography::Geography;
pub use games::gipf::{Gipf, GipfMove};
pub use notation::{Notation, ParseError};
pub use search::{Limits, Report, Solver, SolverKind, SolverOptions, Stats, Value, make_solver};
