//! Software reference model (filled in by the golden-model work).
