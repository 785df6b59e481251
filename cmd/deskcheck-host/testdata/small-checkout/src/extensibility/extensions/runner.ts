export class ExtensionRunner {
	constructor(a, b, c, d, e, f, g) {}
	initialize(mode) {}
}
