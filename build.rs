//! Bakes the git revision into the binary so every result row is traceable.
use std::process::Command;

fn main() {
    let rev = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "unknown".to_string(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_string(),
        );
    // Only changes to what the binary is built from make it "-dirty": result tables, scripts and
    // docs written before a commit (as `scripts/results.sh` does) do not.
    let dirty = Command::new("git")
        .args([
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            "src",
            "build.rs",
            "Cargo.toml",
            "Cargo.lock",
            "nets",
        ])
        .output()
        .ok()
        .is_some_and(|o| o.status.success() && !o.stdout.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=BITSOLVE_GIT={rev}{suffix}");
    // In a linked worktree `.git` is a file; ask git where HEAD and the index really are, so a
    // missing path never forces a rebuild on every run.
    for file in ["HEAD", "index"] {
        let path = Command::new("git")
            .args(["rev-parse", "--git-path", file])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        if let Some(path) = path.filter(|p| std::path::Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    // An edit of what the binary is built from must rerun this script too (not only a commit
    // or a staged change), or a build of an edited tree would still be labelled clean.
    for path in ["build.rs", "src", "Cargo.toml", "Cargo.lock", "nets"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
