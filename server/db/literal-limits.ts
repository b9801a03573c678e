// SQLite re-prepares a statement whose LIMIT is a bound parameter on every run (the bound value may
// change the plan, so binding it expires the statement): a token lookup with `limit ?` took 28 µs
// against 7 µs with `limit 1`, in process. Kysely binds every limit, so this plugin writes a whole-
// number LIMIT into the SQL text instead, for SQLite only. Limits are the code's constants or
// validated page sizes, so the distinct texts stay few, and a number written as text is no
// injection risk. OFFSET stays bound: it changes page by page and would fill the statement cache.
import { type KyselyPlugin, LimitNode, OperationNodeTransformer, type PluginTransformQueryArgs, ValueNode } from 'kysely';

class LimitsAsLiterals extends OperationNodeTransformer {
  protected override transformLimit(node: LimitNode): LimitNode {
    const { limit } = node;
    if (ValueNode.is(limit) && !limit.immediate && Number.isSafeInteger(limit.value) && (limit.value as number) >= 0)
      return LimitNode.create(ValueNode.createImmediate(limit.value));
    return super.transformLimit(node);
  }
}

export class LiteralLimitsPlugin implements KyselyPlugin {
  private readonly transformer = new LimitsAsLiterals();

  transformQuery({ node }: PluginTransformQueryArgs) {
    return this.transformer.transformNode(node);
  }

  async transformResult<R>({ result }: { result: R }): Promise<R> {
    return result;
  }
}
