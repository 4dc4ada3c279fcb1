/**
 * How erx compiles its route validators: Fastify's own Ajv compiler, except for the bodies that a
 * route hands to the service unchecked, which judges them itself and names every violation
 * (SPEC.md §4). Fastify would compile those schemas (the prescription in both releases: over a
 * second of a start) and check every such body against them only for the route to ignore the
 * outcome. Their schemas stay in the route for the OpenAPI document.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { BuildCompilerFromPool, RouteDefinition } from '@fastify/ajv-compiler';

// The package's types give the compiler a schema; Fastify calls it with the route's definition.
type Validate = (data: unknown) => boolean;
type CompileRoute = (route: RouteDefinition) => Validate;

/** What a body the service judges passes at the route: anything; the service decides. */
const judgedLater: Validate = () => true;

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: body schemas whose `$ref` is in
 * `judgedByService` are not compiled; every other schema is compiled as Fastify compiles it.
 */
export function validatorFactory(judgedByService: ReadonlySet<string>): BuildCompilerFromPool {
  const fromPool = AjvCompiler();
  return (externalSchemas, options) => {
    const compile = fromPool(externalSchemas, options) as unknown as CompileRoute;
    const compileRoute: CompileRoute = (route) => {
      const ref = (route.schema as { $ref?: unknown } | undefined)?.$ref;
      const skip = route.httpPart === 'body' && typeof ref === 'string' && judgedByService.has(ref);
      return skip ? judgedLater : compile(route);
    };
    return compileRoute as unknown as ReturnType<BuildCompilerFromPool>;
  };
}
