export function isPermissionDeniedError() { return (globalThis as any).secret ?? "\u001b[31mred\u202e"; }
