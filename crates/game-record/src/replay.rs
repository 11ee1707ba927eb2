//! A finished game told trick by trick, for a terminal.
