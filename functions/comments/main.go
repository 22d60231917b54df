// Command comments is the CommentsFunction Lambda function: the comments
// family (comments and replies on a space's content and in its change
// requests). Built for provided.al2023 as "bootstrap" by
// `make build-CommentsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/commentsroot"
)

func main() { app.StartLambda(app.NewFamily("comments", "CommentsFunction", commentsroot.Routes)) }
