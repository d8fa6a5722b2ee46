use super::*;
use crate::notation::Notation;

#[test]
fn start_s2_round_trips() {
    let pos = Gipf::parse_position("2 3 5 5/2 2 W/WB/B_W/WB").unwrap();
    assert_eq!(pos.format_position(), "2 3 5 5/2 2 W/WB/B_W/WB");
    assert_eq!(pos.board_text(), "2 3 5 5\n2 2 W\n W B  \nB _ W \n W B \n");
    assert_eq!(pos.hash(), pos.hash_from_scratch());
}
