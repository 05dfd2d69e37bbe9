//! A `damas hub` child process for integration tests: lines in, lines out, with deadlines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

pub struct HubProcess {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

const WAIT: Duration = Duration::from_secs(30);

impl HubProcess {
    pub fn start() -> HubProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_damas"));
        command.arg("hub");
        HubProcess::spawn(command)
    }

    /// Run `command` (a `damas hub` however started) as the child.
    pub fn spawn(mut command: Command) -> HubProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn damas");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        // Anything on stderr is a protocol violation: pass it on so a test sees it.
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx2.send(format!("STDERR {l}"));
            }
        });
        HubProcess {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    pub fn recv(&self) -> String {
        let l = self
            .lines
            .recv_timeout(WAIT)
            .expect("a line from the engine");
        assert!(!l.starts_with("STDERR"), "{l}");
        l
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    pub fn quiet_for(&self, d: Duration) -> Option<String> {
        self.lines.recv_timeout(d).ok()
    }

    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("wait");
        assert!(status.success());
    }
}

pub fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}
