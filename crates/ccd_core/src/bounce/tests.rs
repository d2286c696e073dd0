//! Hand-computed multi-bounce cases.
