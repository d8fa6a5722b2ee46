//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary directory, removed with its contents when
/// dropped (at the end of the test, passed or failed).
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates (after removing any left over) `bitsolve-NAME-PID` in the temporary directory.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("bitsolve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
