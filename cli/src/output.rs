//! Standard output that waits while it would block. Under Node's WASI (`npx agent-contract`) the
//! program writes to the process's own descriptor, which Node makes non-blocking when it is a
//! pipe: past the pipe's buffer (64 KiB) a write answers EAGAIN, which `print!` turned into a
//! panic and `write!` into an error, so `| cat` or `| jq` got the first 64 KiB of a report.

use std::io::{self, Write};
use std::time::Duration;

pub struct Stdout(io::Stdout);

pub fn stdout() -> Stdout {
    Stdout(io::stdout())
}

/// `op` again while the descriptor would block, a millisecond apart (the reader is draining).
fn waiting<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match op() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(1)),
            other => return other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        waiting(|| self.0.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        waiting(|| self.0.flush())
    }
}
