//! The codec against the layouts and examples of the DamExchange protocol's layer 2
//! description (the GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT, BACKREQ and BACKACC message
//! pages of the DamExchange documentation), and against hostile input.

use damas::core::color::Color;

use damas::app::dxp::message::*;
use proptest::prelude::*;

fn decode(s: &str) -> Result<Message, DxpError> {
    Message::decode(s.as_bytes())
}

fn round_trip(s: &str) {
    let m = decode(s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    let bytes = m.encode().expect("encodes");
    assert_eq!(String::from_utf8(bytes).expect("ascii"), s);
}

/// The MOVE page's examples: 6-11 after 12 seconds, and 5x25 taking 23, 22, 12 and 20.
#[test]
fn published_move_examples() {
    assert_eq!(
        decode("M0012061100"),
        Ok(Message::Move(MoveMessage {
            seconds: 12,
            from: 6,
            to: 11,
            captured: vec![]
        }))
    );
    assert_eq!(
        decode("M001205250422122320"),
        Ok(Message::Move(MoveMessage {
            seconds: 12,
            from: 5,
            to: 25,
            captured: vec![22, 12, 23, 20]
        }))
    );
    round_trip("M0012061100");
    round_trip("M001205250422122320");
}

/// The GAMEACC page's example: a 32-character name padded with blanks, then '0'.
#[test]
fn published_game_accept_example() {
    let text = "ATornado voor Windows 4.0        0";
    assert_eq!(text.len(), 34);
    assert_eq!(
        decode(text),
        Ok(Message::GameAccept {
            follower: "Tornado voor Windows 4.0".into(),
            acceptance: Acceptance::Accepted
        })
    );
    round_trip(text);
    let refused = format!("A{:<32}3", "X");
    assert!(matches!(
        decode(&refused),
        Ok(Message::GameAccept {
            acceptance: Acceptance::NoGames,
            ..
        })
    ));
}

/// GAMEEND `E00`, BACKREQ `B005Z` (back to move 5, Black to play), CHAT and BACKACC.
#[test]
fn published_short_examples() {
    assert_eq!(
        decode("E00"),
        Ok(Message::GameEnd(GameEnd {
            reason: EndReason::Unspecified,
            stop: false
        }))
    );
    assert_eq!(
        decode("E31"),
        Ok(Message::GameEnd(GameEnd {
            reason: EndReason::SenderWins,
            stop: true
        }))
    );
    assert_eq!(
        decode("B005Z"),
        Ok(Message::BackRequest {
            move_number: 5,
            to_move: Color::Black
        })
    );
    assert_eq!(
        decode("CWhat do you think about move 35?"),
        Ok(Message::Chat("What do you think about move 35?".into()))
    );
    assert_eq!(
        decode("K1"),
        Ok(Message::BackAccept(BackAcceptance::NotSupported))
    );
    for s in [
        "E00",
        "E21",
        "B005Z",
        "B123W",
        "K0",
        "K2",
        "CWhat do you think about move 35?",
    ] {
        round_trip(s);
    }
}

/// GAMEREQ: version 01, a 32-character name, the follower's colour, three digits each of
/// minutes and moves, then `A` or `B` + side + 50 squares.
#[test]
fn game_request_layouts() {
    let initial = format!("R01{:<32}Z005075A", "Scan 2.0");
    assert_eq!(initial.len(), 43);
    assert_eq!(
        decode(&initial),
        Ok(Message::GameRequest(GameRequest {
            version: 1,
            initiator: "Scan 2.0".into(),
            follower_color: Color::Black,
            minutes: 5,
            moves: 75,
            start: StartPosition::Initial
        }))
    );
    round_trip(&initial);
    let board = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
    let given = format!("R01{:<32}W010000BW{board}", "Kingsrow");
    assert_eq!(given.len(), 94);
    match decode(&given) {
        Ok(Message::GameRequest(r)) => {
            assert_eq!(r.follower_color, Color::White);
            assert_eq!(r.minutes, 10);
            assert_eq!(r.moves, 0);
            assert_eq!(
                r.start,
                StartPosition::Given {
                    to_move: Color::White,
                    squares: board.clone()
                }
            );
        }
        other => panic!("{other:?}"),
    }
    round_trip(&given);
}

#[test]
fn truncated_and_overlong_messages() {
    let initial = format!("R01{:<32}Z005075A", "Scan");
    for cut in 1..initial.len() {
        assert!(decode(&initial[..cut]).is_err(), "{cut}");
    }
    assert!(decode(&format!("{initial}X")).is_err());
    let given = format!("R01{:<32}W010000BW{}", "K", "e".repeat(50));
    for cut in 44..given.len() {
        assert!(decode(&given[..cut]).is_err(), "{cut}");
    }
    // 'A' with a position behind it, 'B' without one.
    assert!(decode(&format!("R01{:<32}W010000AW{}", "K", "e".repeat(50))).is_err());
    assert!(decode(&format!("R01{:<32}W010000B", "K")).is_err());
    for s in [
        "M",
        "M001",
        "M00120611",
        "M001206110",
        "M00120611001",
        "M0012052504221223",
    ] {
        assert!(decode(s).is_err(), "{s}");
    }
    assert!(matches!(
        decode("M00120525042212232020"),
        Err(DxpError::Length { .. })
    ));
    assert_eq!(decode(""), Err(DxpError::Empty));
    assert_eq!(
        decode("C"),
        Err(DxpError::Length {
            kind: "CHAT",
            expected: "2 to 127".into(),
            found: 1
        })
    );
    assert_eq!(decode(&"C".repeat(128)), Err(DxpError::TooLong(128)));
    assert!(decode(&format!("C{}", "x".repeat(126))).is_ok());
    for s in [
        "E0",
        "E000",
        "K",
        "K00",
        "B05Z",
        "B0005Z",
        "A",
        &format!("A{:<32}", "X"),
    ] {
        assert!(decode(s).is_err(), "{s}");
    }
}

#[test]
fn bad_fields() {
    let cases = [
        "M0012511100",     // from 51
        "M0012001100",     // from 00
        "M0012069900",     // to 99
        "M00120611-1",     // count not digits
        "M0012 61100",     // blank in a number
        "M001a061100",     // letter in the time
        "M001205252100",   // 21 captured
        "M00120525022222", // the same piece twice
        "M001205250155",   // captured on 55
        "E40",             // reason 4
        "E02",             // stop code 2
        "K3",              // back acceptance 3
        "B000W",           // move 0
        "B005X",           // colour X
        "X1234",           // unknown type
        "m0012061100",     // lower-case header
    ];
    for s in cases {
        assert!(decode(s).is_err(), "{s} decoded");
    }
    assert!(decode(&format!("R0a{:<32}Z005075A", "S")).is_err());
    assert!(decode(&format!("R01{:<32}B005075A", "S")).is_err());
    assert!(decode(&format!("R01{:<32}Z0o5075A", "S")).is_err());
    assert!(decode(&format!("R01{:<32}Z005075C", "S")).is_err());
    assert!(decode(&format!("R01{:<32}Z005075BW{}x", "S", "e".repeat(49))).is_err());
    assert!(decode(&format!("R01{:<32}Z005075BB{}", "S", "e".repeat(50))).is_err());
    assert!(decode(&format!("A{:<32}4", "X")).is_err());
    assert_eq!(Message::decode(b"CCaf\xc3\xa9"), Err(DxpError::NotAscii(4)));
    assert_eq!(Message::decode(b"C a\0b"), Err(DxpError::NotAscii(3)));
}

#[test]
fn encoding_pads_and_refuses() {
    let m = Message::GameAccept {
        follower: "Damas 0.1.0".into(),
        acceptance: Acceptance::Declined,
    };
    let bytes = m.encode().expect("encodes");
    assert_eq!(bytes.len(), 34);
    assert_eq!(&bytes[..12], b"ADamas 0.1.0");
    assert_eq!(bytes[33], b'2');
    // A name longer than its field is cut, a blank one refused.
    let long = Message::GameAccept {
        follower: "x".repeat(40),
        acceptance: Acceptance::Accepted,
    };
    assert_eq!(long.encode().expect("cut").len(), 34);
    let blank = Message::GameAccept {
        follower: "  ".into(),
        acceptance: Acceptance::Accepted,
    };
    assert!(blank.encode().is_err());
    let bad_square = Message::Move(MoveMessage {
        seconds: 0,
        from: 51,
        to: 1,
        captured: vec![],
    });
    assert!(bad_square.encode().is_err());
    let slow = Message::Move(MoveMessage {
        seconds: 10_000,
        from: 1,
        to: 6,
        captured: vec![],
    });
    assert!(slow.encode().is_err());
    let chat = Message::Chat("é".repeat(300));
    let bytes = chat.encode().expect("cut and replaced");
    assert_eq!(bytes.len(), MAX_LEN);
    assert!(Message::decode(&bytes).is_ok());
}

proptest! {
    #[test]
    fn moves_round_trip(seconds in 0u16..10_000, from in 1u8..=50, to in 1u8..=50,
                        captured in proptest::collection::btree_set(1u8..=50, 0..=20)) {
        let m = Message::Move(MoveMessage { seconds, from, to, captured: captured.into_iter().collect() });
        let bytes = m.encode().expect("encodes");
        prop_assert_eq!(Message::decode(&bytes), Ok(m));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = Message::decode(&bytes);
    }
}
