// Package testkit is where gpuwiz's test kits live, each in a package of its own that only tests
// import (TestProductLinksNoTestKit keeps them out of the binary):
//
//   - pyindex: wheels with stub modules, real venvs from a template, and the one loopback package
//     index (PEP 503 and 691 pages, flat find-links pages, real or name-only files, a slow, capped,
//     broken or corrupting network);
//   - tmux: a real terminal for the real binary (the wizard's end-to-end tests, the Wine tests);
//   - gobuild: gpuwiz (or a test program) built as a user's copy is, for those tests;
//   - wineprefix: a Wine prefix in which Go Windows programs start;
//   - filetree: a folder's files with their sha256 as one value, and the difference of two;
//   - pylayout: real Python installations that differ from the machine's in one way (no ensurepip,
//     a conda-style env, an embeddable bundle);
//   - imports: a package held to the gpuwiz packages it may import (the front ends' layering tests).
package testkit
