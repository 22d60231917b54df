module github.com/json-iterator/go

go 1.12

require (
	github.com/davecgh/go-spew v1.1.1
	github.com/google/gofuzz v1.0.0
	github.com/modern-go/concurrent v0.0.0-20180228061459-e0a39a4cb421
	github.com/modern-go/reflect2 v1.0.2
	github.com/stretchr/testify v1.3.0
)
