// Files embedded in the binary with `import path from "…" with { type: "file" }`: the import is their path.
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const path: string;
  export default path;
}
declare module "*/docs/init.js" {
  const path: string;
  export default path;
}
