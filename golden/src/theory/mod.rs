//! False-positive theory (filled in by the theory work).
