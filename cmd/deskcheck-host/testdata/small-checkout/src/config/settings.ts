export class Settings {
	static isolated() { return new Settings(); }
}
