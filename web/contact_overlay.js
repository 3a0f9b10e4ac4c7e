// The contact overlay is part of the package (tribo/three); the demo uses it from there.
export * from '../js/three.js';
