package content

// MaxFileBytes is the largest file a batch may insert.
const MaxFileBytes = 1 << 20
