//! Hashes must not change silently: result files and tables may record them.

use bitsolve::{AtaxxStandard, Game, Notation};

const PINNED: &[(&str, u64)] = &[
    ("x5o/7/7/7/7/7/o5x x 0 1", 0xCA1D_1509_3EFA_9F09),
    ("x5o/7/7/7/7/7/o5x o 0 1", 0x15E4_995C_826F_B4DF),
    ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 0x0D94_4C53_78C3_FA27),
    ("x1o/3/o1x x 0 1", 0x6F91_5DC2_AF30_A109),
    ("x2o/4/4/o2x x 0 1", 0xB6EE_33BA_36B6_8215),
];

#[test]
fn ataxx_hashes_are_stable() {
    for &(fen, hash) in PINNED {
        let pos = AtaxxStandard::parse_position(fen).unwrap();
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{fen}");
        assert_eq!(pos.hash(), hash, "hash of {fen} changed: {:#018x}", pos.hash());
    }
}
