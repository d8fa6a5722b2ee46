//! The games, and the single place that maps a game's name to its type.

pub mod ataxx;
pub mod connect4;
pub mod digraph;
pub mod gauss;
pub mod geography;
pub mod gipf;
pub mod szochy;

use std::fmt;

/// Every game `bitsolve` knows, by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum GameKind {
    /// Ataxx under the community (standard) rules: a side without a move passes.
    Ataxx,
    /// Ataxx under the assignment's (Polish) rules: a side without a move loses.
    AtaxxPolish,
    /// A token on a directed graph (the toy game with cycles used to test solvers).
    Digraph,
    /// Generalised GIPF (basic rules) on a hexagonal board of side 2 to 7.
    Gipf,
    /// Szochy: chess pieces without captures, no position twice (undirected vertex geography).
    Szochy,
    /// Undirected edge geography: a token on a graph of up to 128 vertices.
    Geography,
    /// Gauss: magnets on a hexagon of side 4 with a void ring; the final score decides.
    Gauss,
    /// Connect Four, 7x6 and other boards, with Pons' scores.
    Connect4,
}

impl GameKind {
    /// Every game, in a fixed order.
    pub const ALL: [GameKind; 8] = [
        GameKind::Ataxx,
        GameKind::AtaxxPolish,
        GameKind::Digraph,
        GameKind::Gipf,
        GameKind::Szochy,
        GameKind::Geography,
        GameKind::Gauss,
        GameKind::Connect4,
    ];

    /// The usual start position, if the game has one.
    pub const fn start_position(self) -> Option<&'static str> {
        match self {
            GameKind::Ataxx | GameKind::AtaxxPolish => Some("x5o/7/7/7/7/7/o5x x 0 1"),
            GameKind::Digraph | GameKind::Szochy | GameKind::Geography => None,
            GameKind::Gipf => Some("4 4 15 15/12 12 W/W__B/_____/______/B_____W/______/_____/W__B"),
            GameKind::Gauss => Some(gauss::notation::START),
            GameKind::Connect4 => Some("-"),
        }
    }

    /// A few lines on the rules and the notation, for `bitsolve info`.
    pub const fn description(self) -> &'static str {
        match self {
            GameKind::Ataxx => {
                "Ataxx, community (standard) rules: clone to a neighbouring empty square or jump two \
                 squares; adjacent enemy stones flip. A side without a move passes (0000). Over \
                 when a side has no stones or no empty square is within reach; most stones wins.\n\
                 Positions: FEN, e.g. `x5o/7/7/7/7/7/o5x x 0 1` (x moves first; boards 1x1 to 7x7, \
                 `-` = blocked). Moves: UAI (`f1` clone, `g1e3` jump, `0000` pass).\n\
                 Solving: clocks are ignored and a repeated position is a draw."
            }
            GameKind::AtaxxPolish => {
                "Ataxx, the assignment's (Polish) rules: as `ataxx`, but a side with empty squares \
                 and no move loses (no pass); one colour left wins; a full board is decided by \
                 count.\nPositions and moves as for `ataxx` (moves also as `<from><to>`).\n\
                 Solving: clocks are ignored and a repeated position is a draw."
            }
            GameKind::Digraph => {
                "A token on a directed graph: move it along an out-edge; a side that cannot move \
                 loses; endless play is a draw. A toy game with cycles for testing solvers.\n\
                 Positions: `current|succ0;succ1;...;` e.g. `0|1 2;0;;`. Moves: a vertex number."
            }
            GameKind::Gipf => {
                "Generalised GIPF (basic rules, no GIPF pieces), board side S = 2..7: push a \
                 piece from a dot onto the board; runs of K or more of one colour are removed \
                 with their contiguous segment (own pieces back to the reserve, others \
                 captured; the mover's rows first; crossing rows are a choice). The side to move \
                 loses with an empty reserve or no legal push.\n\
                 Positions: the load format joined with `/`: `S K GW GB/RW RB P/rows...`, e.g. \
                 `2 3 5 5/2 2 W/WB/B_W/WB`. Moves: `a1-b2`; `a1-b2:1` picks the second removal \
                 choice.\n\
                 Solving: a repeated position is a draw. Interactive protocol: `bitsolve gipf`."
            }
            GameKind::Szochy => {
                "Szochy: king, queen, bishop, knight and rook on an N x M board with holes, no \
                 colours, no captures; either player moves any piece; a position (the placement) \
                 may not occur twice; a player without a move loses.\n\
                 Positions: `N M|holes|pieces[|earlier positions]`, e.g. `3 3|2,1 2,2 2,3|k1,2 q3,3` \
                 (1-based `i,j`, `i` horizontal; earlier positions are piece lists joined by `;`). \
                 Moves: `k1,2-2,3`.\n\
                 Solving: `--solver matching` (maximum matching on the position graph) scales; \
                 the search solvers carry the visited set and suit small boards. Official tests: \
                 `bitsolve szochy --tests FILE.json`."
            }
            GameKind::Geography => {
                "Undirected edge geography: move the token along an edge at its vertex and delete \
                 that edge; a side that cannot move loses.\n\
                 Positions: the contest's `200` body `<n> <token> <m> <a1> <b1> ...`, e.g. \
                 `3 0 2 0 1 1 2`. Moves: the target vertex.\n\
                 Solving: exact reductions (immediate wins, bipartite components by the GF(2) \
                 rule, token-component hashing) decide positions early, so `plies` counts to the \
                 decided position. Contest play: `bitsolve geography`."
            }
            GameKind::Gauss => {
                "Gauss: 30 placements on the 19 inner cells of a side-4 hexagon ringed by the \
                 void; each player holds 10 discs of their colour and 5 of the other's. The \
                 placed disc repels the first disc of its colour on each ray outward and \
                 attracts the first of the other colour; groups of 4+ of one colour are \
                 collected (inner discs to the owner's bonus, void discs to the risk zone). \
                 Bonus discs score 1; the colour with more discs on the void pays its risk \
                 discs; ties: fewer own void discs, then fewer risk discs.\n\
                 Positions: `rows side r-supply b-supply bonus risk [row] [risk-first]`, e.g. \
                 the start `..../...../....../......./....../...../.... r 10/5 5/10 0/0 0/0`. \
                 Moves: point and colour, `d4r`. Exact scores: `solve --score`; play: \
                 `bitsolve gauss`."
            }
            GameKind::Connect4 => {
                "Connect Four: drop a stone into a column; four in a row across, up or diagonal \
                 wins; a full board is a draw. Boards of 1-9 columns with columns x (rows + 1) \
                 <= 64, 7x6 by default.\n\
                 Positions: Pons' move sequence, columns 1-W from the left, e.g. `4453`; the \
                 empty board is `-` (or the empty string); another size takes a prefix, \
                 `6x5:3344`. Moves: a column digit.\n\
                 Exact scores (Pons' definition: a win with the winner's k-th stone scores \
                 W*H/2 + 1 - k, 22 - k on 7x6; a draw 0): `solve --score`."
            }
        }
    }

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Ataxx => "ataxx",
            GameKind::AtaxxPolish => "ataxx-polish",
            GameKind::Digraph => "digraph",
            GameKind::Gipf => "gipf",
            GameKind::Szochy => "szochy",
            GameKind::Geography => "geography",
            GameKind::Gauss => "gauss",
            GameKind::Connect4 => "connect4",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with the type alias `$G` bound to the game type of `$kind`: the one dispatch
/// point from a [`GameKind`] to generic code.
///
/// ```
/// use bitsolve::{with_game, GameKind, Notation};
/// fn start_of<G: Notation>(text: &str) -> String {
///     G::parse_position(text).unwrap().format_position()
/// }
/// let text = with_game!(GameKind::Digraph, G => start_of::<G>("0|1;0;"));
/// assert_eq!(text, "0|1;0;");
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Ataxx => {
                type $G = $crate::games::ataxx::AtaxxStandard;
                $body
            }
            $crate::games::GameKind::AtaxxPolish => {
                type $G = $crate::games::ataxx::AtaxxPolish;
                $body
            }
            $crate::games::GameKind::Digraph => {
                type $G = $crate::games::digraph::Digraph;
                $body
            }
            $crate::games::GameKind::Gipf => {
                type $G = $crate::games::gipf::Gipf;
                $body
            }
            $crate::games::GameKind::Szochy => {
                type $G = $crate::games::szochy::Szochy;
                $body
            }
            $crate::games::GameKind::Geography => {
                type $G = $crate::games::geography::Geography;
                $body
            }
            $crate::games::GameKind::Gauss => {
                type $G = $crate::games::gauss::Gauss;
                $body
            }
            $crate::games::GameKind::Connect4 => {
                type $G = $crate::games::connect4::Connect4;
                $body
            }
        }
    };
}

/// Runs `$body` with `$G` bound to the game type of `$kind` if that game is
/// [`Scored`](crate::game::Scored) (has a final score), else evaluates `$other`.
///
/// ```
/// use bitsolve::{with_scored_game, GameKind, Scored};
/// fn bound<G: Scored>() -> i32 { G::SCORE_BOUND }
/// assert_eq!(with_scored_game!(GameKind::Gauss, G => Some(bound::<G>()), None), Some(30));
/// assert_eq!(with_scored_game!(GameKind::Digraph, G => Some(bound::<G>()), None), None);
/// ```
#[macro_export]
macro_rules! with_scored_game {
    ($kind:expr, $G:ident => $body:expr, $other:expr) => {
        match $kind {
            $crate::games::GameKind::Gauss => {
                type $G = $crate::games::gauss::Gauss;
                $body
            }
            $crate::games::GameKind::Connect4 => {
                type $G = $crate::games::connect4::Connect4;
                $body
            }
            _ => $other,
        }
    };
}
