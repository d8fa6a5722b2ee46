//! [`Reductions`]: which exact reductions and search guidance a position applies, and their
//! names on the command line (`--game-option reductions=...`).

/// Which exact reductions a position applies (a small bit set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reductions(pub(super) u16);

impl Reductions {
    /// None: the plain rules.
    pub const NONE: Reductions = Reductions(0);
    /// A neighbour of the token whose only remaining edge is the one to the token is an
    /// immediate win (move there; the opponent is stuck).
    pub const IMMEDIATE_WIN: Reductions = Reductions(1);
    /// Decide a bipartite token component by the GF(2) rule ([`super::reductions::bipartite_outcome`]).
    pub const BIPARTITE: Reductions = Reductions(2);
    /// Hash only the token and the edges of its component (other edges can never be used).
    pub const COMPONENT_HASH: Reductions = Reductions(4);
    /// Bridges of the token's component whose far side is small are solved once (cached in the
    /// position's [`super::BridgeContext`], [`super::subgame`]) and hashed as a gadget of equal value; a
    /// position whose component is such a solved far side is decided
    /// ([`super::reductions::canonical_hash`]). Bridges are searched only in components of at most
    /// [`super::BridgeContext::scan_edge_limit`] edges. The hash then covers only the token's component.
    pub const BRIDGES: Reductions = Reductions(8);
    /// Forced chains (paths through degree-2 vertices) are hashed by their ends and the parity
    /// of their length ([`super::reductions::canonical_hash`]). The hash then covers only the token's
    /// component.
    pub const CHAINS: Reductions = Reductions(16);
    /// Search guidance, not a reduction (exact either way): [`crate::game::Game::generate_moves`] lists
    /// the moves in a structural order, moves that win at once first, then by how few safe
    /// replies they leave the opponent ([`super::Geography::safe_replies`]), moves that let the
    /// opponent win at once last.
    pub const ORDERING: Reductions = Reductions(32);
    /// Search guidance, not a reduction: [`crate::capability::ProofNumberHint`] gives df-pn initial
    /// numbers from the structure ([`super::reductions::proof_numbers_hint`]) instead of the plain
    /// move count.
    pub const PN_HINT: Reductions = Reductions(64);
    /// A position whose every move lets the opponent win at once (walks next to a vertex of
    /// degree 1) is decided lost ([`super::reductions::decide`]).
    pub const TWO_PLY: Reductions = Reductions(128);
    /// Search guidance, not a reduction: with [`Reductions::PN_HINT`], df-pn's initial numbers
    /// lean towards the side the bipartite rule favours on the token's component with its odd
    /// edges left out ([`super::reductions::bipartite_guess`]).
    pub const PN_GUESS: Reductions = Reductions(256);
    /// The GF(2) loss certificate on any component ([`super::reductions::independent_set_loss`]):
    /// an independent set `T` holding the token such that every other vertex has an even
    /// number of edges into `T` means the mover loses (the opponent always answers back into
    /// `T`). It generalises the losing half of the bipartite rule to components with odd cycles.
    pub const PARITY_SET: Reductions = Reductions(512);
    /// The parity-set win certificate ([`super::reductions::parity_win`]): a move after which the
    /// parity-set rule decides the opponent lost means the mover wins. It generalises the
    /// winning half of the bipartite rule (and the immediate win) to components with odd cycles.
    pub const PARITY_WIN: Reductions = Reductions(1024);
    /// Leaf traps ([`super::reductions::traps`]): a vertex `v` other than the token with a neighbour
    /// `w` of remaining degree 1 (`w` not the token) is a trap, since a move into `v` loses at
    /// once (the opponent moves on to `w`, where the mover is stuck). The position has the value
    /// of the same position without the trap's edges, so the traps (found again after each
    /// removal, until none is left) are dropped before the other rules and the hash look at the
    /// position, and moves into them are not generated.
    pub const TRAPS: Reductions = Reductions(2048);
    /// Pendant pieces ([`super::reductions::pieces`]): a small part `H` of the token's component that
    /// a cut vertex `v` separates from the token, with one or two edges to `v`, is solved
    /// alone with the token on `v`. If the mover loses there, `H`'s edges are dropped; if the
    /// mover wins, `v` is hot (entering it loses; its edges are dropped), or, when `v` is the
    /// token, the mover wins. Repeated with the leaf traps until nothing changes; moves into
    /// dropped vertices are not generated.
    pub const PIECES: Reductions = Reductions(4096);
    /// The three-move parity certificate (`reductions::fewest_open_replies_into`): a move after
    /// which every reply of the opponent can be answered by a move into a parity set of the
    /// opponent means the mover wins (the parity-set win rule one full move deeper). An
    /// undecided position also counts its open moves (those the opponent cannot answer by a
    /// move into a parity set of the mover): none open decides a loss. With
    /// [`Reductions::PN_HINT`] the count is df-pn's initial disproof number (instead of the
    /// safe replies), and the fewest replies a move of the mover leaves open is its initial
    /// proof number (instead of 1), both shaped by `reductions::deep_numbers`. Its tests
    /// come from the elimination the other parity rules make anyway, a few unit-vector
    /// reductions and a small system each.
    pub const PARITY_DEEP: Reductions = Reductions(8192);
    /// Every reduction (bridges, chains and the hash reductions; not the search guidance).
    pub const ALL: Reductions = Reductions(31);
    /// The reductions before bridges and chains were added: immediate win, bipartite rule,
    /// component hash.
    pub const BASIC: Reductions = Reductions(7);
    /// What [`super::Geography::new`] turns on: [`Reductions::BASIC`]. Bridges and chains are exact
    /// but, measured on contest positions at the edge of the solver's reach, they leave df-pn's
    /// node counts about unchanged while each node costs more (`results/geography/reach.md`), so
    /// they are opt-in ([`super::Geography::with_reductions`]).
    pub const DEFAULT: Reductions = Reductions::BASIC;

    /// Whether every reduction of `other` is on.
    pub const fn contains(self, other: Reductions) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two sets.
    #[must_use]
    pub const fn with(self, other: Reductions) -> Reductions {
        Reductions(self.0 | other.0)
    }

    /// This set without the reductions of `other`.
    #[must_use]
    pub const fn without(self, other: Reductions) -> Reductions {
        Reductions(self.0 & !other.0)
    }
}

impl std::str::FromStr for Reductions {
    type Err = String;

    /// A comma-separated union of names: `none`, `default`, `basic`, `immediate-win`,
    /// `bipartite`, `component-hash`, `bridges`, `chains`, `all`, `ordering`, `pn-hint`,
    /// `pn-guess`, `two-ply`, `guided` (ordering + pn-hint), `parity-set`, `parity-win`,
    /// `parity-deep`, `traps`, `pieces`.
    /// Example: `default,bridges,chains`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut set = Reductions::NONE;
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            set = set.with(match name {
                "none" => Reductions::NONE,
                "default" => Reductions::DEFAULT,
                "basic" => Reductions::BASIC,
                "immediate-win" => Reductions::IMMEDIATE_WIN,
                "bipartite" => Reductions::BIPARTITE,
                "component-hash" => Reductions::COMPONENT_HASH,
                "bridges" => Reductions::BRIDGES,
                "chains" => Reductions::CHAINS,
                "all" => Reductions::ALL,
                "ordering" => Reductions::ORDERING,
                "pn-hint" => Reductions::PN_HINT,
                "pn-guess" => Reductions::PN_GUESS,
                "two-ply" => Reductions::TWO_PLY,
                "guided" => Reductions::ORDERING.with(Reductions::PN_HINT),
                "parity-set" => Reductions::PARITY_SET,
                "parity-win" => Reductions::PARITY_WIN,
                "parity-deep" => Reductions::PARITY_DEEP,
                "traps" => Reductions::TRAPS,
                "pieces" => Reductions::PIECES,
                other => {
                    return Err(format!(
                        "unknown reduction `{other}` (none, default, basic, immediate-win, \
                         bipartite, component-hash, bridges, chains, all, ordering, pn-hint, \
                         pn-guess, two-ply, guided, parity-set, parity-win, parity-deep, traps, \
                         pieces)"
                    ));
                }
            });
        }
        Ok(set)
    }
}
