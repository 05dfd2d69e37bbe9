//! Hub line syntax (`app::hub::message`): names, values, quotes, malformed lines.

use damas::app::hub::message::*;

fn p(s: &str) -> Result<Message, MessageError> {
    parse(s.as_bytes())
}

#[test]
fn names_values_quotes_and_flags() {
    let m = p("pos pos=Wbbb moves=\"32-28 19-23\" start").expect("ok");
    assert_eq!(m.command, "pos");
    assert_eq!(m.get("pos"), Some("Wbbb"));
    assert_eq!(m.get("moves"), Some("32-28 19-23"));
    assert!(m.has("start"));
    assert_eq!(p("  go   think  ").expect("ok").args.len(), 1);
    assert_eq!(
        p("set-param name=x value=\"\"").expect("ok").get("value"),
        Some("")
    );
}

#[test]
fn malformed_lines_are_errors() {
    for bad in [
        "",
        "   ",
        "=x",
        "pos pos=\"abc",
        "pos pos=a\"b",
        "pos pos=\"a\"b",
        "level depth==3",
        "go\u{1}think",
        "a \"b\"",
    ] {
        assert!(p(bad).is_err(), "{bad:?}");
    }
    assert_eq!(parse(&[0x66, 0xff, 0x66]), Err(MessageError::NotUtf8));
}

#[test]
fn quoting_round_trips() {
    for v in ["", "a b", "x=y", "plain"] {
        let line = format!("c k={}", quote(v));
        assert_eq!(p(&line).expect("ok").get("k"), Some(v));
    }
}
