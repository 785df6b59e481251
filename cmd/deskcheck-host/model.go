package main

import "github.com/deskcheck/deskcheck/host/omp"

// modelRelease is the model release the real code is compared with.
var modelRelease = omp.Release
