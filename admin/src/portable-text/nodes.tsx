import { defineAnnotation, defineBlockObject, defineDecorator, defineInlineObject, defineTextBlock, type RegistrableNode, type TextBlockRenderProps } from '@portabletext/editor';
import type { ReactElement } from 'react';
import { CodeCard } from './blocks/CodeCard';
import { CustomCard, InlineCard } from './blocks/CustomCard';
import { MediaCard } from './blocks/MediaCard';
import { codeType, fileType, imageType, linkType, type ValueTypes } from './schema';

/**
 * How each kind of node looks in the editor (the editor's node registrations). Renders are plain
 * functions the editor calls, so anything with hooks is a component of its own (blocks/).
 */

const headings = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

function textBlock({ attributes, children, node }: TextBlockRenderProps): ReactElement {
  const style = node.style ?? 'normal';
  if (node.listItem) {
    return (
      <div {...attributes} className={`pt-block pt-list-item pt-style-${style}`} data-list={node.listItem} data-level={node.level ?? 1}>
        {children}
      </div>
    );
  }
  if (headings.has(style)) {
    const Heading = style as 'h1';
    return (
      <Heading {...attributes} className="pt-block">
        {children}
      </Heading>
    );
  }
  if (style === 'blockquote') {
    return (
      <blockquote {...attributes} className="pt-block">
        {children}
      </blockquote>
    );
  }
  // Styles without an element of their own (verse, preformatted, a client's own) keep their name as a class.
  return (
    <p {...attributes} className={`pt-block pt-style-${style}`}>
      {children}
    </p>
  );
}

const decoratorElements: Record<string, (children: ReactElement) => ReactElement> = {
  strong: (children) => <strong>{children}</strong>,
  em: (children) => <em>{children}</em>,
  code: (children) => <code>{children}</code>,
  underline: (children) => <u>{children}</u>,
  'strike-through': (children) => <s>{children}</s>,
  sup: (children) => <sup>{children}</sup>,
  sub: (children) => <sub>{children}</sub>,
  highlight: (children) => <mark>{children}</mark>,
};

/** The registrations for a schema's types: made once per schema (a new array would re-register them all). */
export function nodesFor(known: ValueTypes): RegistrableNode[] {
  const nodes: RegistrableNode[] = [
    defineTextBlock({ type: 'block', render: textBlock }),
    defineDecorator({
      type: '*',
      render: ({ decorator, children }) => decoratorElements[decorator]?.(children) ?? <span className={`pt-decorator-${decorator}`}>{children}</span>,
    }),
    defineAnnotation({
      type: linkType,
      render: ({ children, annotation }) => (
        <span className="pt-link" title={typeof annotation.href === 'string' ? annotation.href : undefined}>
          {children}
        </span>
      ),
    }),
    defineAnnotation({ type: '*', render: ({ children }) => <span className="pt-annotation">{children}</span> }),
  ];
  for (const type of known.blockObjects) {
    if (type === codeType) nodes.push(defineBlockObject({ type, render: (props) => <CodeCard {...props} /> }));
    else if (type === imageType || type === fileType) nodes.push(defineBlockObject({ type, render: (props) => <MediaCard {...props} /> }));
    else nodes.push(defineBlockObject({ type, render: (props) => <CustomCard {...props} /> }));
  }
  for (const type of known.inlineObjects) nodes.push(defineInlineObject({ type, render: (props) => <InlineCard {...props} /> }));
  return nodes;
}
