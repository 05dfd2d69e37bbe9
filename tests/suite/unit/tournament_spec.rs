//! Player specs of `damas match` (`app::tournament::spec`).

use damas::app::tournament::spec::*;

#[test]
fn words_keep_quoted_text() {
    let w = split_words("name=X cmd='/usr/bin/dame hub --x \"y\"'  a=1").expect("ok");
    assert_eq!(w, vec!["name=X", "cmd=/usr/bin/dame hub --x \"y\"", "a=1"]);
    assert!(split_words("cmd='open").is_err());
}

#[test]
fn internal_player_settings() {
    let damas = vec!["damas".to_string(), "hub".to_string()];
    let p = PlayerSpec::parse("name=A depth=12 book=false hash=64", true, &damas, 0).expect("ok");
    assert_eq!(p.name, "A");
    assert_eq!(p.command, damas);
    assert_eq!(p.level, Some(Level::Depth(12)));
    assert_eq!(
        p.params,
        vec![
            ("book".to_string(), "false".to_string()),
            ("hash".to_string(), "64".to_string())
        ]
    );
    assert_eq!(
        PlayerSpec::parse("depth=x", true, &damas, 0),
        Err(SpecError::OutOfRange {
            key: "depth".into(),
            value: "x".into(),
            expected: "a whole number from 1 to 120".into()
        })
    );
    assert_eq!(
        PlayerSpec::parse("depth=1000", true, &damas, 0)
            .expect_err("past the search's depth")
            .to_string(),
        "bad value '1000' for depth (expected a whole number from 1 to 120)"
    );
    assert_eq!(
        PlayerSpec::parse("name=B", false, &damas, 1),
        Err(SpecError::MissingCommand("B".into()))
    );
    let e = PlayerSpec::parse("name=X cmd='dame hub'", false, &damas, 1).expect("ok");
    assert_eq!(e.command, vec!["dame", "hub"]);
    assert_eq!(e.dxp, None);
}

#[test]
fn dxp_players() {
    let damas = vec!["damas".to_string()];
    let s = PlayerSpec::parse("name=scan dxp=127.0.0.1:27531", false, &damas, 1).expect("ok");
    assert_eq!(s.dxp.as_deref(), Some("127.0.0.1:27531"));
    assert!(s.command.is_empty());
    let started = PlayerSpec::parse(
        "name=scan dxp=:27600 cmd='./scan dxp' dir=/opt/scan",
        false,
        &damas,
        1,
    )
    .expect("ok");
    assert_eq!(started.command, vec!["./scan", "dxp"]);
    assert_eq!(started.dir, Some(std::path::PathBuf::from("/opt/scan")));
    assert_eq!(
        PlayerSpec::parse("name=scan dxp=:27600 threads=2", false, &damas, 1),
        Err(SpecError::SettingsForDxp("threads".into()))
    );
    assert_eq!(
        PlayerSpec::parse("name=d dxp=:27600", true, &damas, 0),
        Err(SpecError::CommandForInternal)
    );
    assert!(PlayerSpec::parse("name=scan dxp=", false, &damas, 1).is_err());
}
