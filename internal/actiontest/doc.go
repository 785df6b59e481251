// Package actiontest holds the test that runs the steps of the
// repository's GitHub Action (action.yml) locally, in order, with bash, on
// a scratch repository: the same commands a workflow runs, so that the
// action cannot rot unnoticed. It has no code of its own.
package actiontest
