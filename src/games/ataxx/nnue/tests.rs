use super::*;
use crate::notation::Notation;
use crate::{AtaxxPolish, AtaxxStandard};

/// `SplitMix64` for test data.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// A value in `-m..=m`.
    fn signed(&mut self, m: i16) -> i16 {
        (self.below(2 * m as usize + 1) as i32 - i32::from(m)) as i16
    }
}

/// A net with random weights in the ranges a trained net has.
fn random_net(seed: u64) -> Network {
    let mut rng = Mix(seed);
    let mut input_weights = vec![[0i16; HIDDEN]; INPUTS];
    for w in input_weights.iter_mut().flatten() {
        *w = rng.signed(200);
    }
    let mut input_bias = [0i16; HIDDEN];
    for b in &mut input_bias {
        *b = rng.signed(300);
    }
    let mut output_weights = [[0i16; HIDDEN]; 2];
    for w in output_weights.iter_mut().flatten() {
        *w = rng.signed(MAX_OUTPUT_WEIGHT);
    }
    let net = SquareNet {
        input_weights,
        input_bias,
        output_weights,
        output_bias: rng.signed(3000).into(),
        scale: 340,
        fingerprint: 0,
    };
    Network::from_bytes(&net.to_bytes()).unwrap()
}

/// A tuples net with random weights in the ranges a trained one has, written as a version-2
/// file by hand (independently of `to_bytes`) and parsed.
fn random_tuple_net(seed: u64, hidden: usize) -> Network {
    Network::from_bytes(&random_tuple_bytes(seed, hidden, false)).unwrap()
}

/// The bytes of a random tuples net (version 3 with `blocked`), written by hand.
fn random_tuple_bytes(seed: u64, hidden: usize, blocked: bool) -> Vec<u8> {
    let mut rng = Mix(seed);
    let mut bytes = MAGIC.to_vec();
    let (version, inputs) = if blocked {
        (tuples::BLOCKED_VERSION, tuples::BLOCKED_INPUTS)
    } else {
        (tuples::VERSION, tuples::INPUTS)
    };
    for v in [version, inputs as u32, hidden as u32, QA as u32, QB as u32] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&400i32.to_le_bytes());
    // Input weights, input biases, output weights, each in its range.
    for (count, range) in [(inputs * hidden, 120), (hidden, 200), (hidden, MAX_OUTPUT_WEIGHT)] {
        for _ in 0..count {
            bytes.extend_from_slice(&rng.signed(range).to_le_bytes());
        }
    }
    bytes.extend_from_slice(&i32::from(rng.signed(3000)).to_le_bytes());
    bytes
}

fn leak(net: Network) -> &'static Network {
    Box::leak(Box::new(net))
}

#[test]
fn embedded_net_loads_and_round_trips() {
    let net = Network::embedded();
    assert_eq!(net.to_bytes(), EMBEDDED);
    assert!(matches!(
        net,
        Network::Tuples(t) if t.hidden() == 256 && t.blocked_inputs() && t.buckets() == 8
    ));
    assert_eq!(EMBEDDED.len(), tuples::file_bytes_bucketed(256, 8));
}

#[test]
fn embedded_net_is_net26a() {
    let net26a = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net26a.nnue"));
    assert_eq!(
        EMBEDDED,
        net26a.as_slice(),
        "nets/ataxx/default.nnue must be a copy of net26a.nnue"
    );
    assert_eq!(i32::from_le_bytes(net26a[28..32].try_into().unwrap()), 700);
}

#[test]
fn net12b_is_net8a_plus_blocked_rows() {
    // net12b was trained with --blocked-rows-only from net8a: its 2916 window rows, biases and
    // output are net8a's, so it evaluates every board without blocked squares as net8a does.
    let net8a = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net8a.nnue"));
    let net12b = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net12b.nnue"));
    let rows = HEADER_BYTES + 2 * tuples::INPUTS * 256;
    assert_eq!(net8a[28..rows], net12b[28..rows]);
    assert_eq!(net8a[rows..], net12b[rows + 2 * tuples::SQUARES * 256..]);
    assert!(net12b[rows..rows + 2 * tuples::SQUARES * 256].iter().any(|&b| b != 0));
}

#[test]
fn net6b_is_net6a_at_scale_700() {
    let net6b = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net6b.nnue"));
    // net6b is net6a with the evaluation scale 700 instead of the fitted 164
    // (scripts/ataxx_net_scale.py): the same weights.
    let net6a = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net6a.nnue"));
    assert_eq!(net6a.len(), net6b.len());
    assert_eq!(net6a[..28], net6b[..28]);
    assert_eq!(net6a[32..], net6b[32..]);
    assert_eq!(i32::from_le_bytes(net6b[28..32].try_into().unwrap()), 700);
}

#[test]
fn the_squares_nets_still_load() {
    for bytes in [
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net1a.nnue")).as_slice(),
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/net1b.nnue")).as_slice(),
    ] {
        let net = Network::from_bytes(bytes).unwrap();
        assert!(matches!(net, Network::Squares(_)));
        assert_eq!(net.to_bytes(), bytes);
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_on_random_games() {
    let net = leak(random_net(7));
    let mut rng = Mix(11);
    let mut checked = 0;
    for game in 0..60 {
        let mut pos = if game % 3 == 0 {
            NetAtaxx::new(
                AtaxxStandard::parse_position("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap(),
                Some(net),
            )
        } else {
            NetAtaxx::new(AtaxxStandard::startpos(), Some(net))
        };
        loop {
            let mut moves = <NetAtaxx<false> as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
            assert_eq!(pos.accumulator(), &net.refresh(pos.position()), "after game {game}");
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} positions");
}

#[test]
fn polish_positions_update_the_same_way() {
    let net = leak(random_net(3));
    let mut pos = NetAtaxx::new(AtaxxPolish::startpos(), Some(net));
    let mut rng = Mix(5);
    for _ in 0..200 {
        let mut moves = <NetAtaxx<true> as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
        assert_eq!(pos.accumulator(), &net.refresh(pos.position()));
    }
}

#[test]
fn quantised_evaluation_matches_the_float_reference() {
    let net = leak(random_net(19));
    let mut rng = Mix(23);
    let mut pos = NetAtaxx::new(AtaxxStandard::startpos(), Some(net));
    let mut spread = Vec::new();
    for _ in 0..150 {
        let mut moves = <NetAtaxx<false> as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
        if pos.outcome().is_some() {
            break;
        }
        let q = f64::from(pos.evaluate());
        let f = net.evaluate_float(pos.position());
        // Only the integer divisions differ: less than one unit of the output sum each.
        assert!((q - f).abs() <= 2.0, "quantised {q} vs float {f}");
        spread.push(q);
    }
    assert!(spread.iter().any(|&q| (q - spread[0]).abs() > 0.5), "the evaluation never changed");
}

#[test]
fn evaluation_is_the_same_for_swapped_colours() {
    // Both architectures: the squares net and a tuples net.
    for net in [leak(random_net(29)), leak(random_tuple_net(53, 32))] {
        let a = AtaxxStandard::parse_position("x5o/7/2xo3/3x3/7/7/o5x x 0 1").unwrap();
        let b = AtaxxStandard::parse_position("o5x/7/2ox3/3o3/7/7/x5o o 0 1").unwrap();
        let (a, b) = (NetAtaxx::new(a, Some(net)), NetAtaxx::new(b, Some(net)));
        assert_eq!(a.evaluate(), b.evaluate());
    }
}

#[test]
fn without_a_net_the_hand_made_evaluation_is_used() {
    let pos = AtaxxStandard::parse_position("x5o/7/2xo3/3x3/7/7/o5x x 0 1").unwrap();
    assert_eq!(NetAtaxx::new(pos.clone(), None).evaluate(), pos.evaluate());
}

#[test]
fn loader_rejects_bad_files() {
    let good = random_net(31).to_bytes();
    assert!(Network::from_bytes(&good).is_ok());
    for len in [0, 3, 8, 20, HEADER_BYTES, FILE_BYTES / 2, FILE_BYTES - 1] {
        assert!(Network::from_bytes(&good[..len]).is_err(), "truncated to {len}");
    }
    let mut long = good.clone();
    long.push(0);
    assert_eq!(Network::from_bytes(&long), Err(NetError::Length(FILE_BYTES + 1, FILE_BYTES)));
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(Network::from_bytes(&bad), Err(NetError::BadMagic));
    let mut bad = good.clone();
    bad[8] = 5;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Version(5)));
    let mut bad = good.clone();
    bad[16] = 64;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Shape("hidden", 64, HIDDEN as i64)));
    let mut bad = good.clone();
    bad[28..32].copy_from_slice(&0i32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Scale(0)));
    let mut bad = good.clone();
    let at = FILE_BYTES - 4 - 2;
    bad[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::OutputWeight(2 * HIDDEN - 1)));
    assert!(matches!(Network::load_file("/nonexistent/net.nnue"), Err(NetError::Io(_))));
}

#[test]
fn random_bytes_never_panic_the_loader() {
    let mut rng = Mix(37);
    for _ in 0..200 {
        let len = rng.below(FILE_BYTES + 10);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if rng.below(2) == 0 && len >= 8 {
            bytes[..8].copy_from_slice(MAGIC);
        }
        let _ = Network::from_bytes(&bytes);
    }
    // A well-formed header with extreme weights still evaluates without panicking.
    let mut bytes = random_net(41).to_bytes();
    for b in &mut bytes[HEADER_BYTES..HEADER_BYTES + 2 * INPUTS * HIDDEN] {
        *b = 0x7f;
    }
    let net = leak(Network::from_bytes(&bytes).unwrap());
    let full = AtaxxStandard::parse_position(
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/oooooo1 x 0 1",
    )
    .unwrap();
    let _ = NetAtaxx::new(full, Some(net)).evaluate();
}

#[test]
fn tuples_nets_round_trip_and_match_the_float_reference() {
    // 80 hidden: a block of 64 units and one of 16 (`TupleNet::output_sum`).
    for hidden in [16, 80, 256] {
        let net = leak(random_tuple_net(43 + hidden as u64, hidden));
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), tuples::file_bytes(hidden));
        assert_eq!(&Network::from_bytes(&bytes).unwrap().to_bytes(), &bytes);
        let mut rng = Mix(47);
        let mut pos = NetAtaxx::new(AtaxxStandard::startpos(), Some(net));
        let mut seen = Vec::new();
        for _ in 0..150 {
            let mut moves = <NetAtaxx<false> as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
            let q = f64::from(pos.evaluate());
            let f = net.evaluate_float(pos.position());
            if f.abs() < 19_000.0 {
                assert!((q - f).abs() <= 2.0, "{hidden} hidden: quantised {q} vs float {f}");
            }
            seen.push(q);
        }
        assert!(seen.iter().any(|&q| (q - seen[0]).abs() > 0.5), "the evaluation never changed");
    }
}

#[test]
fn loader_rejects_bad_tuples_files() {
    let good = random_tuple_net(59, 32).to_bytes();
    let size = tuples::file_bytes(32);
    for len in [HEADER_BYTES, size / 2, size - 1] {
        assert!(Network::from_bytes(&good[..len]).is_err(), "truncated to {len}");
    }
    let mut long = good.clone();
    long.push(0);
    assert_eq!(Network::from_bytes(&long), Err(NetError::Length(size + 1, size)));
    let mut bad = good.clone();
    bad[12..16].copy_from_slice(&98u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Shape("inputs", 98, 2916)));
    for hidden in [0u32, 24, 528] {
        let mut bad = good.clone();
        bad[16..20].copy_from_slice(&hidden.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Hidden(hidden.into())));
    }
    let err = NetError::Hidden(24).to_string();
    assert!(err.contains("multiple of 16 from 16 to 512"), "{err}");
    let mut bad = good.clone();
    let at = size - 4 - 2;
    bad[at..at + 2].copy_from_slice(&(-128i16).to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::OutputWeight(31)));
    // Extreme weights evaluate without panicking.
    let mut bytes = good;
    for b in &mut bytes[HEADER_BYTES..HEADER_BYTES + 2 * tuples::INPUTS * 32] {
        *b = 0x7f;
    }
    let net = leak(Network::from_bytes(&bytes).unwrap());
    let _ = NetAtaxx::new(AtaxxStandard::startpos(), Some(net)).evaluate();
}

#[test]
fn tuples_block_sizes_give_the_same_sums() {
    // The dispatched sum (the widest kernel the processor has) and every kernel it has against
    // the portable blocks of 64 and of 16, on random nets whose hidden sizes mix the block
    // sizes (AVX-512: 256, 32 and 16; AVX2: 128 and 16).
    let mut kernels = std::collections::BTreeSet::new();
    for hidden in [16, 48, 80, 144, 256, 304, 512] {
        let Network::Tuples(net) = random_tuple_net(61 + hidden as u64, hidden) else {
            panic!("a tuples net");
        };
        let mut rng = Mix(67);
        let mut pos = AtaxxStandard::startpos();
        for _ in 0..100 {
            let mut moves = <AtaxxStandard as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
            let side = pos.side_to_move();
            let active = tuples::features(pos.stones(side).0, pos.stones(!side).0);
            let portable = net.output_sum_in::<16>(&active, 0);
            assert_eq!(net.output_sum_in::<64>(&active, 0), portable, "{hidden} hidden");
            assert_eq!(net.output_sum(&active, 0), portable, "{hidden} hidden");
            for kernel in tuples::Kernel::ALL {
                let sum = net.output_sum_with(kernel, &active, 0);
                assert_eq!(sum.is_some(), kernel.available(), "{kernel:?}");
                if let Some(sum) = sum {
                    assert_eq!(sum, portable, "{kernel:?}, {hidden} hidden");
                    kernels.insert(format!("{kernel:?}"));
                }
            }
        }
    }
    assert!(kernels.contains("Portable"), "{kernels:?}");
}

#[test]
fn tuples_sums_reject_inputs_beyond_the_net() {
    let Network::Tuples(net) = random_tuple_net(71, 32) else { panic!("a tuples net") };
    let beyond = [0, tuples::INPUTS as u16];
    for kernel in tuples::Kernel::ALL.into_iter().filter(|k| k.available()) {
        let caught = std::panic::catch_unwind(|| net.output_sum_with(kernel, &beyond, 0));
        assert!(caught.is_err(), "{kernel:?} read a row beyond the net");
    }
}

/// Positions of random games from starts with blocked squares (and one without).
fn blocked_positions(seed: u64) -> Vec<AtaxxStandard> {
    let starts = [
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x5o/1-3-1/7/3-3/7/1-3-1/o5x x 0 1",
        "x-3-o/7/7/7/7/7/o-3-x x 0 1",
        "x5o/7/7/7/7/7/o5x x 0 1",
    ];
    let mut rng = Mix(seed);
    let mut out = Vec::new();
    for fen in starts {
        let mut pos = AtaxxStandard::parse_position(fen).unwrap();
        for _ in 0..60 {
            let mut moves = <AtaxxStandard as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn blocked_inputs_are_the_blocked_squares() {
    // Blocked c3 (rank 2, file 2) and e5 (rank 4, file 4); x on a1, o on g7, x to move.
    let pos = AtaxxStandard::parse_position("6o/7/4-2/7/2-4/7/x6 x 0 1").unwrap();
    let side = pos.side_to_move();
    let (us, them) = (pos.stones(side).0, pos.stones(!side).0);
    let blocked = 0x007F_7F7F_7F7F_7F7F & !pos.valid().0;
    let with = tuples::active_inputs(us, them, blocked, true);
    let without = tuples::active_inputs(us, them, blocked, false);
    assert_eq!(&with[..36], &without[..]);
    assert_eq!(&without[..], &tuples::features(us, them)[..]);
    let extra = (tuples::INPUTS + 7 * 2 + 2) as u16;
    assert_eq!(&with[36..], &[extra, extra + 7 * 2 + 2]);
}

#[test]
fn blocked_inputs_nets_round_trip_and_match_the_float_reference() {
    for hidden in [16, 80] {
        let bytes = random_tuple_bytes(71 + hidden as u64, hidden, true);
        assert_eq!(bytes.len(), tuples::file_bytes_with(tuples::BLOCKED_INPUTS, hidden));
        let net = leak(Network::from_bytes(&bytes).unwrap());
        assert!(matches!(net, Network::Tuples(t) if t.blocked_inputs()));
        assert_eq!(net.to_bytes(), bytes);
        for pos in blocked_positions(73) {
            let q = f64::from(NetAtaxx::new(pos.clone(), Some(net)).evaluate());
            let f = net.evaluate_float(&pos);
            if f.abs() < 19_000.0 {
                assert!((q - f).abs() <= 2.0, "{hidden} hidden: quantised {q} vs float {f}");
            }
        }
    }
}

#[test]
fn zero_blocked_rows_play_as_the_version_2_net_and_others_only_change_blocked_boards() {
    let hidden = 32;
    let v2 = random_tuple_bytes(79, hidden, false);
    // The same net as version 3: 49 rows of zeros after the 2916 window rows.
    let rows = HEADER_BYTES + 2 * tuples::INPUTS * hidden;
    let mut v3 = v2[..rows].to_vec();
    v3[8..12].copy_from_slice(&tuples::BLOCKED_VERSION.to_le_bytes());
    v3[12..16].copy_from_slice(&(tuples::BLOCKED_INPUTS as u32).to_le_bytes());
    v3.extend(std::iter::repeat_n(0u8, 2 * tuples::SQUARES * hidden));
    v3.extend_from_slice(&v2[rows..]);
    // And with random blocked rows.
    let mut other = v3.clone();
    let mut rng = Mix(83);
    for b in &mut other[rows..rows + 2 * tuples::SQUARES * hidden] {
        *b = rng.next() as u8 & 0x3f;
    }
    let [v2, v3, other] = [v2, v3, other].map(|b| leak(Network::from_bytes(&b).unwrap()));
    let (mut changed, mut blocked_boards) = (0, 0);
    for pos in blocked_positions(89) {
        let eval = |net| NetAtaxx::new(pos.clone(), Some(net)).evaluate();
        assert_eq!(eval(v2), eval(v3));
        if pos.valid().0 == 0x007F_7F7F_7F7F_7F7F {
            assert_eq!(eval(v3), eval(other));
        } else {
            blocked_boards += 1;
            changed += usize::from(eval(v3) != eval(other));
        }
    }
    assert!(blocked_boards > 100 && changed > blocked_boards / 2, "{changed} of {blocked_boards}");
}

#[test]
fn loader_rejects_a_version_3_header_with_version_2_inputs() {
    let mut bytes = random_tuple_bytes(97, 16, false);
    bytes[8..12].copy_from_slice(&tuples::BLOCKED_VERSION.to_le_bytes());
    assert_eq!(Network::from_bytes(&bytes), Err(NetError::Shape("inputs", 2916, 2965)));
    let mut bytes = random_tuple_bytes(97, 16, true);
    bytes.pop();
    let want = tuples::file_bytes_with(tuples::BLOCKED_INPUTS, 16);
    assert_eq!(Network::from_bytes(&bytes), Err(NetError::Length(want - 1, want)));
}

/// The version-3 file `v3` (with `hidden` units) as a version-4 file with one output bucket
/// per entry of `outputs`: each entry the bytes of a version-3 file whose output weights and
/// bias that bucket takes (its other weights are ignored).
fn bucketed(v3: &[u8], hidden: usize, outputs: &[&[u8]]) -> Vec<u8> {
    let out_at = HEADER_BYTES + 2 * (tuples::BLOCKED_INPUTS * hidden + hidden);
    let mut bytes = v3[..HEADER_BYTES].to_vec();
    bytes[8..12].copy_from_slice(&tuples::BUCKETS_VERSION.to_le_bytes());
    bytes.extend_from_slice(&(outputs.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&v3[HEADER_BYTES..out_at]);
    for o in outputs {
        bytes.extend_from_slice(&o[out_at..out_at + 2 * hidden]);
    }
    for o in outputs {
        bytes.extend_from_slice(&o[out_at + 2 * hidden..]);
    }
    bytes
}

/// Positions of random games with and without blocked squares, from every stage of the game.
fn bucket_positions() -> Vec<AtaxxStandard> {
    let mut out = blocked_positions(101);
    let mut rng = Mix(103);
    for _ in 0..6 {
        let mut pos = AtaxxStandard::startpos();
        for _ in 0..400 {
            let mut moves = <AtaxxStandard as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            // Mostly clones, so that the board fills up.
            let clones: Vec<_> = moves.iter().copied().filter(|m| m.is_clone()).collect();
            let pick = if clones.is_empty() || rng.below(4) == 0 { &moves[..] } else { &clones };
            pos.play(pick[rng.below(pick.len())]);
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn a_version_3_net_copied_into_every_bucket_plays_as_before() {
    let hidden = 32;
    let v3 = random_tuple_bytes(107, hidden, true);
    let v4 = bucketed(&v3, hidden, &[&v3[..]; 8]);
    assert_eq!(v4.len(), tuples::file_bytes_bucketed(hidden, 8));
    let [a, b] = [&v3, &v4].map(|bytes| leak(Network::from_bytes(bytes).unwrap()));
    assert!(matches!(b, Network::Tuples(t) if t.buckets() == 8 && t.blocked_inputs()));
    assert_eq!(b.to_bytes(), v4);
    for pos in bucket_positions() {
        let eval = |net| NetAtaxx::new(pos.clone(), Some(net)).evaluate();
        assert_eq!(eval(a), eval(b));
        assert!((a.evaluate_float(&pos) - b.evaluate_float(&pos)).abs() < 1e-9);
    }
}

#[test]
fn each_bucket_evaluates_with_its_own_output_layer() {
    let hidden = 48;
    let base = random_tuple_bytes(109, hidden, true);
    // Five nets that share the input layer and differ in the output layer.
    let out_at = HEADER_BYTES + 2 * (tuples::BLOCKED_INPUTS * hidden + hidden);
    let outputs: Vec<Vec<u8>> = (0..5)
        .map(|k| {
            let other = random_tuple_bytes(113 + k, hidden, true);
            let mut bytes = base[..out_at].to_vec();
            bytes.extend_from_slice(&other[out_at..]);
            bytes
        })
        .collect();
    let slices: Vec<&[u8]> = outputs.iter().map(|o| &o[..]).collect();
    let v4 = leak(Network::from_bytes(&bucketed(&base, hidden, &slices)).unwrap());
    let single: Vec<&'static Network> =
        outputs.iter().map(|o| leak(Network::from_bytes(o).unwrap())).collect();
    let mut seen = [0usize; 5];
    for pos in bucket_positions() {
        // Empty playable squares, counted square by square.
        let mut empties = 0;
        for sq in (0..7).flat_map(|r| (0..7).map(move |f| 8 * r + f)) {
            let stone = (pos.stones(Player::First).0 | pos.stones(Player::Second).0) >> sq & 1;
            empties += u32::from(pos.valid().0 >> sq & 1 == 1 && stone == 0);
        }
        let k = (empties as usize * 5 / 50).min(4);
        assert_eq!(k, tuples::bucket(empties, 5));
        seen[k] += 1;
        let eval = |net| NetAtaxx::new(pos.clone(), Some(net)).evaluate();
        assert_eq!(eval(v4), eval(single[k]), "bucket {k}, {empties} empty");
        let (f, g) = (v4.evaluate_float(&pos), single[k].evaluate_float(&pos));
        assert!((f - g).abs() < 1e-9, "bucket {k}: float {f} vs {g}");
        let q = f64::from(eval(v4));
        if f.abs() < 19_000.0 {
            assert!((q - f).abs() <= 2.0, "quantised {q} vs float {f}");
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "positions per bucket {seen:?}");
}

#[test]
fn loader_rejects_bad_bucket_counts() {
    let hidden = 16;
    let v3 = random_tuple_bytes(127, hidden, true);
    let good = bucketed(&v3, hidden, &[&v3[..]; 3]);
    assert!(Network::from_bytes(&good).is_ok());
    for count in [0u32, 17] {
        let mut bad = good.clone();
        bad[32..36].copy_from_slice(&count.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Buckets(count.into())));
    }
    assert!(NetError::Buckets(17).to_string().contains("1 to 16"));
    let mut bad = good.clone();
    bad[12..16].copy_from_slice(&(tuples::INPUTS as u32).to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Shape("inputs", 2916, 2965)));
    let want = tuples::file_bytes_bucketed(hidden, 3);
    for len in [HEADER_BYTES, HEADER_BYTES + 2, want - 1] {
        assert!(Network::from_bytes(&good[..len]).is_err(), "truncated to {len}");
    }
    let mut long = good;
    long.push(0);
    assert_eq!(Network::from_bytes(&long), Err(NetError::Length(want + 1, want)));
}

#[test]
fn the_eval_cache_changes_no_search_and_keeps_nets_apart() {
    use crate::search::engine::{Engine, EngineOptions, SearchLimits};
    let options = EngineOptions { threads: 1, hash_mib: 4, eval_cache: false };
    let cached = EngineOptions { eval_cache: true, ..options.clone() };
    let limits = SearchLimits { nodes: Some(3_000), ..SearchLimits::default() };
    let net = Network::embedded();
    let mut blocked = AtaxxStandard::startpos();
    for sq in [19, 25, 27, 33] {
        blocked.block(sq);
    }
    for start in [AtaxxStandard::startpos(), blocked] {
        // One engine with the cache and one without play the same game move by move (the
        // cache lives across the searches of a game, as in the self-play generator).
        let (mut with, mut without) = (Engine::new(&cached), Engine::new(&options));
        let (mut pos, mut history) = (NetAtaxx::new(start, Some(net)), Vec::new());
        for ply in 0..40 {
            if pos.outcome().is_some() {
                break;
            }
            let a = with.search(&pos, &history, &limits, &mut |_| {});
            let b = without.search(&pos, &history, &limits, &mut |_| {});
            assert_eq!(a.best_move, b.best_move, "ply {ply}");
            assert_eq!(
                (a.info.nodes, a.info.score, &a.info.pv),
                (b.info.nodes, b.info.score, &b.info.pv)
            );
            history.push(pos.hash());
            pos.play(a.best_move.expect("a move"));
        }
        assert!(with.eval_cache_filled() > 1_000, "{}", with.eval_cache_filled());
        assert_eq!(without.eval_cache_filled(), 0);
    }
    // Two nets never share an entry; the hand-made evaluation is not cached.
    let other = leak(random_tuple_net(5, 32));
    let pos = AtaxxStandard::startpos();
    let (a, b) = (NetAtaxx::new(pos.clone(), Some(net)), NetAtaxx::new(pos.clone(), Some(other)));
    assert_ne!(a.eval_key(), b.eval_key());
    assert_eq!(NetAtaxx::new(pos, None).eval_key(), None);
}
