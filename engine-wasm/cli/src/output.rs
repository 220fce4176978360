//! Where the commands write: standard output that a closed pipe does not
//! turn into an error, and output files checked before any run, so that a
//! typo in `--out` costs nothing instead of a finished sweep.

use std::io::{self, Write};
use std::path::Path;

/// `-` as an output path: standard output, in every command.
pub(crate) const STDOUT: &str = "-";

/// Standard output that goes quiet once its reader has gone (`| head`):
/// later writes are dropped, as a Unix tool's would be, so the command
/// still finishes what else it writes (`run --out DIR`) and exits 0.
pub(crate) struct Stdout<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> Stdout<W> {
    pub(crate) fn new(inner: W) -> Self {
        Stdout {
            inner,
            closed: false,
        }
    }

    fn absorb<T>(&mut self, result: io::Result<T>, done: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            Err(e) => Err(io::Error::new(
                e.kind(),
                format!("cannot write standard output: {e}"),
            )),
            ok => ok,
        }
    }
}

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.inner.write(buf);
        self.absorb(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.absorb(result, ())
    }
}

/// Refuse an output file that cannot be written, before anything runs: its
/// folder missing, a folder in its place, no permission. Nothing the user
/// named is created, truncated or removed: an existing regular file is
/// opened for appending (and closed); for a new file (or a link to one) a
/// scratch file is made and removed in the folder it will go to. A pipe or
/// a device is left alone (opening it would be seen by its other end).
pub(crate) fn check_writable(path: &str, flag: &str) -> Result<(), String> {
    if path == STDOUT {
        return Ok(());
    }
    let p = Path::new(path);
    let cannot = |e: io::Error| format!("{flag} {path}: cannot write there: {e}");
    match std::fs::metadata(p) {
        Ok(m) if m.is_dir() => Err(format!("{flag} {path}: is a folder; give a file name")),
        Ok(m) if m.is_file() => std::fs::OpenOptions::new()
            .append(true)
            .open(p)
            .map(drop)
            .map_err(cannot),
        Ok(_) => Ok(()),
        Err(_) => {
            // Where the file will be: through a dangling link, its target.
            let target = match std::fs::read_link(p) {
                Ok(t) if t.is_relative() => p.parent().unwrap_or(Path::new("")).join(t),
                Ok(t) => t,
                Err(_) => p.to_path_buf(),
            };
            let folder = match target.parent() {
                Some(f) if !f.as_os_str().is_empty() => f.to_path_buf(),
                _ => Path::new(".").to_path_buf(),
            };
            let scratch = folder.join(format!(".sawtooth-write-check-{}", std::process::id()));
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&scratch)
                .map_err(cannot)?;
            let _ = std::fs::remove_file(&scratch);
            Ok(())
        }
    }
}

/// A path as the file system will resolve it, whether or not the file
/// exists yet (`a.csv` and `./a.csv` are one file).
fn resolved(path: &str) -> std::path::PathBuf {
    let p = Path::new(path);
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    let folder = match p.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), p.file_name()) {
        (Ok(f), Some(name)) => f.join(name),
        _ => p.to_path_buf(),
    }
}

/// Refuse two outputs that name one file (the second would silently
/// replace the first), and an output that names an input.
pub(crate) fn check_distinct(outputs: &[(&str, &str)], inputs: &[String]) -> Result<(), String> {
    let same = |a: &str, b: &str| a == b || resolved(a) == resolved(b);
    for (i, (flag, path)) in outputs.iter().enumerate() {
        if *path == STDOUT {
            continue;
        }
        for (other_flag, other) in &outputs[i + 1..] {
            if same(path, other) {
                return Err(format!(
                    "{flag} and {other_flag} both name {path}: give each its own file"
                ));
            }
        }
        if let Some(input) = inputs.iter().find(|f| same(path, f)) {
            return Err(format!(
                "{flag} {path} is also an input file ({input}): write elsewhere"
            ));
        }
    }
    Ok(())
}

/// Write `bytes` to `path` (`-`: to `out`).
pub(crate) fn write_to(bytes: &[u8], path: &str, out: &mut impl Write) -> Result<(), String> {
    if path == STDOUT {
        out.write_all(bytes).map_err(|e| e.to_string())
    } else {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {path}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct ClosedPipe;
    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_closed_pipe_is_not_an_error() {
        let mut out = Stdout::new(ClosedPipe);
        assert!(writeln!(out, "a line nobody reads").is_ok());
        assert!(out.flush().is_ok());
        assert!(out.closed);
    }

    #[test]
    fn an_unwritable_path_is_refused_and_a_new_one_left_absent() {
        let dir = std::env::temp_dir().join(format!("sawtooth-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("no-such-folder").join("x.csv");
        let err = check_writable(missing.to_str().unwrap(), "--out").unwrap_err();
        assert!(
            err.starts_with("--out ") && err.contains("cannot write there"),
            "{err}"
        );
        let err = check_writable(dir.to_str().unwrap(), "--out").unwrap_err();
        assert!(err.contains("is a folder"), "{err}");
        let fresh = dir.join("fresh.csv");
        check_writable(fresh.to_str().unwrap(), "--out").unwrap();
        assert!(!fresh.exists());
        assert!(check_writable(STDOUT, "--out").is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_file_for_two_outputs_is_refused() {
        let err =
            check_distinct(&[("--out", "a.csv"), ("--compare-out", "a.csv")], &[]).unwrap_err();
        assert!(err.contains("both name a.csv"), "{err}");
        let err = check_distinct(&[("--out", "s1.csv")], &["s1.csv".into()]).unwrap_err();
        assert!(err.contains("also an input"), "{err}");
        assert!(check_distinct(&[("--out", "-"), ("--compare-out", "-")], &[]).is_ok());
        let err =
            check_distinct(&[("--out", "a.csv"), ("--compare-out", "./a.csv")], &[]).unwrap_err();
        assert!(err.contains("both name"), "{err}");
    }

    /// A link to a file that does not exist yet stays a link, and nothing is
    /// made at its target, by the check.
    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_left_as_it_is() {
        let dir = std::env::temp_dir().join(format!("sawtooth-output-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let link = dir.join("out.csv");
        std::os::unix::fs::symlink("target.csv", &link).unwrap();
        check_writable(link.to_str().unwrap(), "--out").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(!dir.join("target.csv").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
