//! The `bitsolve` command line.
fn main() {}
