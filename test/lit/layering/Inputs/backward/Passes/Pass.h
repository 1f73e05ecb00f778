// The pass header.
