// Package chromium drives a headless Chromium through its DevTools
// protocol over --remote-debugging-pipe (JSON messages ended by a NUL
// byte on the browser's fds 3 and 4: no websocket, no dependency beyond
// the browser), to test pages as a browser shows them: console errors,
// the layout of their elements, a screenshot.
package chromium
