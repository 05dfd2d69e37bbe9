//! Run the built `damas` binary to completion.

use std::process::Command;

/// Exit code, stdout and stderr of `damas args…`.
pub fn damas(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .output()
        .expect("run damas");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
