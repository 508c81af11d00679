#!/usr/bin/env node
// Starts dynalite for stwb's tests: in memory, on 127.0.0.1 only, on the port given
// (--port N; 0 or none lets the system pick a free one). Prints one line,
// "listening <port>", once it accepts connections, so that the Go test that started
// it knows where to connect without racing for a port.
//
// It exits when its standard input closes: the Go test holds the other end of that
// pipe, so dynalite never outlives a test binary that crashed or was killed.
//
// Usage: node start.js [--port N] [--createTableMs MS] [--deleteTableMs MS] [--updateTableMs MS]
'use strict'

var argv = process.argv.slice(2)
var opts = {}
for (var i = 0; i < argv.length; i += 2) {
  var name = argv[i].replace(/^--/, '')
  var value = Number(argv[i + 1])
  if (!/^(port|createTableMs|deleteTableMs|updateTableMs)$/.test(name) || !Number.isInteger(value) || value < 0) {
    console.error('start.js: bad option ' + argv[i] + ' ' + argv[i + 1] +
      '; usage: node start.js [--port N] [--createTableMs MS] [--deleteTableMs MS] [--updateTableMs MS]')
    process.exit(2)
  }
  opts[name] = value
}

var server = require('dynalite')({
  createTableMs: opts.createTableMs,
  deleteTableMs: opts.deleteTableMs,
  updateTableMs: opts.updateTableMs,
})

server.on('error', function (err) {
  console.error('start.js: dynalite could not listen: ' + err.message)
  process.exit(1)
})

server.listen(opts.port || 0, '127.0.0.1', function () {
  console.log('listening ' + server.address().port)
})

process.stdin.on('end', function () { process.exit(0) })
process.stdin.on('error', function () { process.exit(0) })
process.stdin.resume()
