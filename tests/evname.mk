# tests of event-name resolution
