/** The version of the API the contract describes: the OpenAPI document's `info.version`, bumped with the contract package. */
export const apiVersion = '0.1.0';
