module github.com/blevesearch/vellum

go 1.21

require (
	github.com/bits-and-blooms/bitset v1.2.0
	github.com/blevesearch/mmap-go v1.0.4
	github.com/spf13/cobra v1.4.0
)

require (
	github.com/inconshreveable/mousetrap v1.0.0 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	golang.org/x/sys v0.0.0-20220520151302-bc2c85ada10a // indirect
)
